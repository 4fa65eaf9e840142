/** One OpenAI-chat-shaped message line of a session file. Unknown fields are kept as they are. */
export interface SessionMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: unknown;
  reasoning_content?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [k: string]: unknown;
}

export type RunState = 'started' | 'completed' | 'cancelled' | 'failed' | 'interrupted';

/** The payload of a `{"_run": …}` line. */
export interface RunRecord {
  session_id: string;
  run_id: string;
  kind: string;
  parent_run_id?: string;
  tool_call_id?: string;
  state: RunState;
  timestamp_ms: number;
  detail?: string;
  /** Ours, on a subagent run's `started` record: what a resumed session's card shows (upstream's reader ignores them). */
  mode?: 'single' | 'parallel' | 'chain';
  task?: string;
  depth?: number;
  /** Ours, on a finished main turn's `completed` record: what its requests cost, shown again on a replayed reply. */
  cost?: TurnCostRecord;
}

/** A main turn's cost (its `cost_update`'s figures) and the fingerprint of its reply (`turnReplyFingerprint`). */
export interface TurnCostRecord {
  estimated_usd: number | null;
  requests: number;
  tokens_in: number;
  tokens_out: number;
  reply: string;
}

export interface LoadedSession {
  messages: SessionMessage[];
  runs: RunRecord[];
  /** Unparseable or unrecognised lines before the last one; they are skipped. */
  malformedLines: number;
  /** The last line could not be parsed (a crash mid-write); it is ignored. */
  truncatedTail: boolean;
  /** Runs whose latest record is `started`: the process ended before the run reached a terminal state. */
  interruptedRuns: RunRecord[];
  /** `_session_version` of the header; undefined for an old file without one. */
  version?: number;
  /** Human-readable notes about what was recovered or is suspicious. */
  warnings: string[];
}

/** The version this code writes. Files of version 1 (upstream's older writer) have the same line shapes. */
export const SESSION_VERSION = 2;

export const SESSION_HEADER_LINE = JSON.stringify({ _session_version: SESSION_VERSION });
