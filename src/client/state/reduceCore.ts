// Reducers for the core itself: process status, handshake, models, provider and auth, approval mode, user selections.
import type { ModelInfo } from '../../protocol';
import { APPROVAL_MODES, type ApprovalMode, type CoreKind, type ModelView, type SessionState } from '../../shared/sessionState';
import type { CoreStatusEvent } from './clientEvents';
import { type UntrustedEvent, bool, num, records, str, strings } from './eventFields';
import { reduceAllRunsEnded } from './reduceRun';

/**
 * What a kind of core can do beyond what protocol_hello lists: every Catalyst v2 core has steer, reasoning, sessions and
 * undo (upstream does not advertise them). An SCV core gets only what it advertises.
 */
const IMPLIED_CAPABILITIES: Record<CoreKind, readonly string[]> = {
  embedded: ['steer', 'thinking', 'sessions', 'undo'],
  catalyst: ['steer', 'thinking', 'sessions', 'undo'],
  scv: [],
};

export function capabilitiesFor(kind: CoreKind, advertised: readonly string[]): string[] {
  return [...new Set([...advertised, ...(IMPLIED_CAPABILITIES[kind] ?? [])])];
}

export function isApprovalMode(v: unknown): v is ApprovalMode {
  return typeof v === 'string' && (APPROVAL_MODES as readonly string[]).includes(v);
}

export function reduceCoreStatus(s: SessionState, e: CoreStatusEvent): SessionState {
  const kind = e.kind ?? s.core.kind;
  const core: SessionState['core'] = { kind, status: e.status, capabilities: s.core.capabilities };
  if (e.capabilities) core.capabilities = capabilitiesFor(kind, e.capabilities);
  const version = e.version ?? s.core.version;
  if (version !== undefined) core.version = version;
  if (e.message !== undefined) core.message = e.message;
  const pid = e.pid ?? (e.status === 'ready' ? s.core.pid : undefined);
  if (pid !== undefined) core.pid = pid;
  const next = sameCore(core, s.core) ? s : { ...s, core };
  return e.status === 'ready' || e.status === 'starting' ? next : reduceAllRunsEnded(next);
}

function sameCore(a: SessionState['core'], b: SessionState['core']): boolean {
  return (
    a.kind === b.kind &&
    a.status === b.status &&
    a.message === b.message &&
    a.version === b.version &&
    a.pid === b.pid &&
    a.capabilities === b.capabilities
  );
}

export function reduceReady(s: SessionState, e: UntrustedEvent<'ready'>): SessionState {
  const models = Array.isArray(e.models) ? modelViews(e.models) : s.models;
  const next: SessionState = {
    ...s,
    models,
    model: chooseModel(models, s.model),
    authed: bool(e.authed) ?? s.authed,
    anyLoggedIn: bool(e.anyLoggedIn) ?? s.anyLoggedIn,
    approvalMode: isApprovalMode(e.approval) ? e.approval : s.approvalMode,
  };
  assignDefined(next, 'provider', str(e.provider));
  assignDefined(next, 'workspace', str(e.workspace));
  // Not in upstream's ready; ours reports the file it resumed.
  assignDefined(next, 'sessionFile', str(e.session_file));
  if (next.model === undefined) delete next.model;
  return next;
}

export function reduceProtocolHello(s: SessionState, e: UntrustedEvent<'protocol_hello'>): SessionState {
  const capabilities = capabilitiesFor(s.core.kind, strings(e.capabilities));
  const version = str(e.version);
  return { ...s, core: { ...s.core, capabilities, ...(version !== undefined ? { version } : {}) } };
}

export function reduceModels(s: SessionState, e: UntrustedEvent<'models'>): SessionState {
  if (!Array.isArray(e.models)) return s;
  const models = modelViews(e.models);
  const next: SessionState = { ...s, models, model: chooseModel(models, s.model) };
  if (next.model === undefined) delete next.model;
  return next;
}

/** The user's previous choice while it is still offered, else the first model. */
export function chooseModel(models: readonly ModelView[], previous: string | undefined): string | undefined {
  if (previous !== undefined && models.some((m) => m.id === previous)) return previous;
  return models[0]?.id;
}

function modelViews(raw: unknown): ModelView[] {
  return records<ModelInfo>(raw).flatMap((m) => {
    const id = str(m.id);
    if (!id) return [];
    const view: ModelView = { id };
    assignDefined(view, 'name', str(m.name));
    assignDefined(view, 'provider', str(m.provider) || undefined);
    assignDefined(view, 'reasoning', bool(m.reasoning));
    const levels = strings(m.thinking_levels);
    if (levels.length) view.thinkingLevels = levels;
    assignDefined(view, 'contextWindow', num(m.context_window));
    assignDefined(view, 'vision', bool(m.vision));
    return [view];
  });
}

export function reduceAuthed(s: SessionState, e: UntrustedEvent<'authed'>): SessionState {
  const ok = bool(e.ok);
  if (ok === undefined) return s;
  const provider = str(e.provider);
  const forActive = provider === undefined || s.provider === undefined || provider === s.provider;
  const authed = forActive ? ok : s.authed;
  const anyLoggedIn = s.anyLoggedIn || ok;
  return authed === s.authed && anyLoggedIn === s.anyLoggedIn ? s : { ...s, authed, anyLoggedIn };
}

export function reduceProviderChanged(s: SessionState, e: UntrustedEvent<'provider_changed'>): SessionState {
  const provider = str(e.provider) ?? s.provider;
  const hasKey = bool(e.has_key);
  const next: SessionState = { ...s, authed: hasKey ?? s.authed, anyLoggedIn: s.anyLoggedIn || hasKey === true };
  assignDefined(next, 'provider', provider);
  return next;
}

/** Only a plain mode changes the picker; an escalation ("destructive:always", "allow_pattern") joins approvalEscalations instead. */
export function reduceApprovalChanged(s: SessionState, e: UntrustedEvent<'approval_changed'>): SessionState {
  return isApprovalMode(e.mode) && e.mode !== s.approvalMode ? { ...s, approvalMode: e.mode } : s;
}

export function reduceModelSelected(s: SessionState, model: string): SessionState {
  return typeof model === 'string' && model && model !== s.model ? { ...s, model } : s;
}

export function reduceReasoningSelected(s: SessionState, effort: string): SessionState {
  return typeof effort === 'string' && effort && effort !== s.reasoningEffort ? { ...s, reasoningEffort: effort } : s;
}

export function reduceApprovalModeSelected(s: SessionState, mode: string): SessionState {
  return isApprovalMode(mode) && mode !== s.approvalMode ? { ...s, approvalMode: mode } : s;
}

function assignDefined<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}
