/**
 * The advisor (upstream's watchdog, research §12.1): off by default (`advisor.enabled`). After the main loop's answer
 * without tool calls, a second model reads the last messages and replies NONE or one recommendation with a severity;
 * the note is shown (`advisor_note`) and kept as a system message, which the model reads on the next turn — the turn
 * is not re-prompted. Left out from upstream: WATCHDOG files (a roster of named advisors), children's advisors.
 */
import type { AdvisorSettings } from '../config/coreConfig';
import { streamChat } from '../providers/stream';
import type { ChatMessage, ResolvedProvider } from '../providers/types';
import type { RunEvent } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';

export const ADVISOR_NAME = 'default';
const MAX_TOKENS = 400;
const RECENT_MESSAGES = 8;
const TRANSCRIPT_CHARS = 12_000;
const NOTE_CHARS = 1500;
const MIN_NOTE_CHARS = 8;
type Severity = 'nit' | 'concern' | 'blocker';

/** The opening of the advisor's request (a test routes it by these words). */
export const ADVISOR_REQUEST_HEADER = 'Review the coding agent’s latest reply.';

const ADVISOR_PROMPT = [
  'You are a watchdog reviewing the work of a coding agent. Read the transcript and decide whether the agent needs a',
  'correction: a wrong claim, a missed requirement, an unsafe or destructive step, unfinished work presented as done.',
  'If nothing needs saying, reply with the single word NONE.',
  'Otherwise reply with one line "SEVERITY: nit", "SEVERITY: concern" or "SEVERITY: blocker", then one short, concrete',
  'recommendation addressed to the agent. Never more than one recommendation.',
].join(' ');

export interface AdvisorReview {
  settings: AdvisorSettings;
  /** The reviewing model and its provider; no provider when none serves the model. */
  model: string;
  provider: ResolvedProvider | undefined;
  messages: readonly ChatMessage[];
  append(message: ChatMessage): void;
  emit(event: RunEvent): void;
  signal: AbortSignal;
  idleTimeoutMs: number;
  secrets: readonly string[];
  /** The provider client by default; a test seam. */
  stream?: typeof streamChat;
}

export interface AdvisorNote {
  severity: Severity;
  message: string;
}

/** Runs the review when the advisor is on; a failed review is reported as information and never fails the turn. */
export async function reviewReply(r: AdvisorReview): Promise<void> {
  if (!r.settings.enabled) return;
  const status = (state: 'no_key' | 'reviewing') =>
    r.emit({ type: 'advisor_status', scope: 'main', advisor: ADVISOR_NAME, state, model: r.model });
  if (!r.provider) return status('no_key');
  status('reviewing');
  let reply: string;
  try {
    const result = await (r.stream ?? streamChat)(
      {
        provider: r.provider,
        model: r.model,
        messages: [
          { role: 'system', content: ADVISOR_PROMPT },
          { role: 'user', content: `${ADVISOR_REQUEST_HEADER}\n\n${transcriptOf(r.messages, r.secrets)}` },
        ],
        tools: [],
        maxTokens: MAX_TOKENS,
        signal: r.signal,
        idleTimeoutMs: r.idleTimeoutMs,
      },
      () => undefined,
    );
    reply = result.text;
  } catch (err) {
    if (r.signal.aborted) return;
    r.emit({ type: 'info', message: `the advisor could not review the reply: ${scrubText((err as Error).message, r.secrets)}` });
    return;
  }
  if (r.signal.aborted) return;
  const note = parseAdvice(reply);
  if (!note || alreadyAdvised(r.messages, note)) return;
  r.emit({ type: 'advisor_note', scope: 'main', advisor: ADVISOR_NAME, model: r.model, ...note });
  r.append({ role: 'system', content: advisory(note) });
}

/** NONE, an empty reply or one too short to say anything is no note; a reply without a severity line is a nit. */
export function parseAdvice(reply: string): AdvisorNote | undefined {
  const text = reply.trim();
  if (!text || /^none\b/i.test(text)) return undefined;
  const match = /^\s*\**severity\**\s*:\s*\**\s*(nit|concern|blocker)\b\**[\s.:-]*/i.exec(text);
  const severity = (match?.[1].toLowerCase() as Severity | undefined) ?? 'nit';
  const message = (match ? text.slice(match[0].length) : text).trim().slice(0, NOTE_CHARS);
  if (message.length < MIN_NOTE_CHARS || /^none\b/i.test(message)) return undefined;
  return { severity, message };
}

function advisory(note: AdvisorNote): string {
  return `<advisory advisor="${ADVISOR_NAME}" severity="${note.severity}" scope="main">${note.message}</advisory>`;
}

/** An exact repeat within the session is dropped: the conversation keeps every advisory given. */
function alreadyAdvised(messages: readonly ChatMessage[], note: AdvisorNote): boolean {
  const given = advisory(note);
  return messages.some((m) => m.role === 'system' && m.content === given);
}

/** The last messages as `role: text` lines, without tool output or earlier advisories, secrets scrubbed, the tail kept. */
function transcriptOf(messages: readonly ChatMessage[], secrets: readonly string[]): string {
  const lines = messages
    .filter((m) => !(m.role === 'system' && typeof m.content === 'string' && m.content.startsWith('<advisory')))
    .slice(-RECENT_MESSAGES)
    .map((m) => `${m.role}: ${m.role === 'tool' ? '[tool result omitted]' : lineOf(m)}`);
  const text = scrubText(lines.join('\n'), secrets);
  return text.length > TRANSCRIPT_CHARS ? text.slice(-TRANSCRIPT_CHARS) : text;
}

function lineOf(m: ChatMessage): string {
  const text =
    typeof m.content === 'string'
      ? m.content
      : (m.content ?? []).map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
  const calls = (m.tool_calls ?? []).map((c) => `[calls ${c.function.name} ${c.function.arguments.slice(0, 200)}]`);
  return [text, ...calls].filter(Boolean).join(' ');
}
