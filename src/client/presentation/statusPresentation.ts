import type { SessionState } from '../../shared/sessionState';

export type StatusSeverity = 'normal' | 'warning' | 'error';
export interface StatusPresentation {
  text: string;
  tooltip: string;
  severity: StatusSeverity;
}

/** What the status bar item shows for a core's state; `undefined` state = no core started yet in this window. */
export function describeStatus(state: SessionState | undefined, folderName?: string, now = Date.now()): StatusPresentation {
  if (!state)
    return {
      text: '$(comment-discussion) Catalyst',
      tooltip: 'Catalyst Code: the core starts when you open the chat. Click to open it.',
      severity: 'normal',
    };
  const label = rateLimitLabel(state, now) ?? coreLabel(state);
  const model = state.model ? ` · ${shortModelName(state.model)}` : '';
  return {
    text: `${label.icon} ${label.text}${label.withModel ? model : ''}`,
    tooltip: tooltipFor(state, folderName),
    severity: label.severity,
  };
}

/** While a provider's 429 lasts and nothing runs: "rate limited until HH:MM" (local time). */
function rateLimitLabel(state: SessionState, now: number): CoreLabel | undefined {
  const until = state.rateLimitedUntil;
  if (until === undefined || until * 1000 <= now || state.core.status !== 'ready' || state.run.status !== 'idle') return undefined;
  return { icon: '$(watch)', text: `${serverName(state)}: rate limited until ${clockText(until)}`, severity: 'warning', withModel: true };
}

/** Local HH:MM of a unix time. */
export function clockText(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

interface CoreLabel {
  icon: string;
  text: string;
  severity: StatusSeverity;
  withModel: boolean;
}

function coreLabel(state: SessionState): CoreLabel {
  const name = serverName(state);
  switch (state.core.status) {
    case 'stopped':
      return { icon: '$(circle-slash)', text: `${name}: stopped`, severity: 'normal', withModel: false };
    case 'starting':
      return { icon: '$(loading~spin)', text: `${name}: starting`, severity: 'normal', withModel: false };
    case 'restarting':
      return { icon: '$(loading~spin)', text: `${name}: restarting`, severity: 'warning', withModel: false };
    case 'crashed':
      return { icon: '$(error)', text: `${name}: crashed`, severity: 'error', withModel: false };
    case 'ready':
      return runLabel(state, name);
  }
}

function runLabel(state: SessionState, name: string): CoreLabel {
  switch (state.run.status) {
    case 'running':
      return { icon: '$(sync~spin)', text: `${name}: running`, severity: 'normal', withModel: true };
    case 'waiting_approval':
      return { icon: '$(bell-dot)', text: `${name}: waiting for approval`, severity: 'warning', withModel: true };
    case 'waiting_input':
      return { icon: '$(question)', text: `${name}: waiting for input`, severity: 'warning', withModel: true };
    case 'idle':
      return { icon: '$(comment-discussion)', text: `${name}: idle`, severity: 'normal', withModel: true };
  }
}

/** "Catalyst" for our cores; an SCV server by name and the version its handshake reported (e.g. "SCV 0.3.14"). */
function serverName(state: SessionState): string {
  if (state.core.kind !== 'scv') return 'Catalyst';
  return state.core.version ? `SCV ${state.core.version}` : 'SCV';
}

function tooltipFor(state: SessionState, folderName?: string): string {
  const scv = state.core.kind === 'scv';
  const what = scv ? `SCV server${state.core.version ? ` ${state.core.version}` : ''}` : 'core';
  const lines = [`Catalyst Code — ${what} ${state.core.status}${state.core.message ? `: ${state.core.message}` : ''}`];
  if (folderName) lines.push(`Workspace folder: ${folderName}`);
  // An SCV server has its own provider configuration; there is nothing to log in to from here.
  if (!scv) lines.push(`Provider: ${state.provider || 'none'}${state.authed ? '' : ' (not logged in)'}`);
  if (state.model) lines.push(`Model: ${state.model}`);
  const session = state.sessions.find((s) => s.current);
  if (session || state.sessionFile) lines.push(`Session: ${session?.title || baseName(state.sessionFile ?? session?.path ?? '')}`);
  lines.push('Click to open the chat.');
  return lines.join('\n');
}

/** Provider-prefixed ids (`anthropic/claude-sonnet-4`) are long; the last segment says which model it is. */
export function shortModelName(id: string): string {
  const last = id.slice(id.lastIndexOf('/') + 1);
  return last.length > 32 ? `${last.slice(0, 31)}…` : last;
}

function baseName(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}
