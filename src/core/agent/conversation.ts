import type { ChatMessage } from '../providers/types';
import { SecretScrubber } from '../runtime/redact';
import { SessionWriter, loadSessionFile, type LoadedSession, type RunRecord, type SessionMessage } from '../sessions/sessionFile';

export interface ConversationOptions {
  /** The live secrets (provider keys…): every occurrence is written to the session file as [REDACTED]. */
  secrets?: () => readonly string[];
}

/**
 * The in-memory conversation and its session file: every finalized message is appended at once, the file is fsynced at the
 * end of each turn, and rewrites (reset, undo, compact) replace the file atomically. What is written is scrubbed of the
 * live secrets; the in-memory messages (the model's context) keep what the model actually said.
 */
export class Conversation {
  private messages: ChatMessage[] = [];
  private runs: RunRecord[] = [];
  private writer: SessionWriter | undefined;

  constructor(
    private sessionPath: string | undefined,
    options: ConversationOptions = {},
  ) {
    if (!sessionPath) return;
    const scrubber = options.secrets ? new SecretScrubber(options.secrets) : undefined;
    this.writer = new SessionWriter(sessionPath, scrubber ? { serialize: (value) => scrubber.serialize(value).json } : {});
  }

  /** Opens a session file (creating it if needed) and returns what was loaded from it. */
  static open(sessionPath: string | undefined, options: ConversationOptions = {}): { conversation: Conversation; loaded?: LoadedSession } {
    if (!sessionPath) return { conversation: new Conversation(undefined, options) };
    const loaded = loadSessionFile(sessionPath);
    const conversation = new Conversation(sessionPath, options);
    conversation.messages = repairToolPairs(loaded.messages as ChatMessage[]);
    conversation.runs = loaded.runs;
    return { conversation, loaded };
  }

  get path(): string | undefined {
    return this.sessionPath;
  }

  get all(): readonly ChatMessage[] {
    return this.messages;
  }

  get length(): number {
    return this.messages.length;
  }

  get runRecords(): readonly RunRecord[] {
    return this.runs;
  }

  append(message: ChatMessage): void {
    this.messages.push(message);
    this.writer?.appendMessage(message as SessionMessage);
  }

  recordRun(record: RunRecord): void {
    this.runs.push(record);
    this.writer?.appendRun(record);
  }

  sync(): void {
    this.writer?.sync();
  }

  /** Replaces the whole conversation and its run records (and the file, atomically). */
  replace(messages: ChatMessage[], runs: RunRecord[] = this.runs): void {
    this.messages = [...messages];
    this.runs = [...runs];
    this.writer?.rewrite(this.messages as SessionMessage[], this.runs);
  }

  /** Clears memory only: the file stays so a restart resumes it (the `clear` command). */
  clearInMemory(): void {
    this.messages = [];
  }

  close(): void {
    this.writer?.close();
    this.writer = undefined;
  }

  /** Index of the last user message that starts a turn, or -1. */
  lastTurnStart(): number {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i].role === 'user') return i;
    return -1;
  }
}

/**
 * A conversation cut by a crash may hold assistant tool calls without results; providers reject such histories, so each
 * missing result is filled with a note saying the call was interrupted.
 */
export function repairToolPairs(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    out.push(m);
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    let j = i + 1;
    while (j < messages.length && messages[j].role === 'tool') {
      answered.add(messages[j].tool_call_id ?? '');
      out.push(messages[j]);
      j++;
    }
    for (const call of m.tool_calls) {
      if (!answered.has(call.id))
        out.push({ role: 'tool', tool_call_id: call.id, content: `tool call '${call.function.name}' was interrupted before it finished` });
    }
    i = j - 1;
  }
  return out;
}
