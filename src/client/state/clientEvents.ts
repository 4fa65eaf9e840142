import type { ApprovalMode, CoreKind, CoreStatus, NoticeItem, ServerQueueView } from '../../shared/sessionState';

/**
 * What the client itself knows and feeds to the session reducer beside the core's events: process lifecycle and the
 * user's own actions (shown at once, before the core confirms anything). The `client:` prefix can never clash with a
 * core event type.
 */
export type ClientEvent =
  | CoreStatusEvent
  | PromptEvent
  | ModelSelectedEvent
  | ReasoningSelectedEvent
  | ApprovalModeSelectedEvent
  | ApprovalAnsweredEvent
  | AskAnsweredEvent
  | SudoAnsweredEvent
  | IntercomRepliedEvent
  | NoticeEvent
  | ServerQueueEvent
  | ToolProgressEvent
  | ServerTurnEvent;

export interface CoreStatusEvent {
  type: 'client:core_status';
  status: CoreStatus;
  message?: string;
  pid?: number;
  /** From protocol_hello; the reducer adds what the core kind implies. */
  capabilities?: string[];
  kind?: CoreKind;
  version?: string;
}

/** The user sent a prompt: a user item now, or `run.queued` while a run is going. */
export interface PromptEvent {
  type: 'client:prompt';
  text: string;
  images: number;
}

export interface ModelSelectedEvent {
  type: 'client:model_selected';
  model: string;
}

export interface ReasoningSelectedEvent {
  type: 'client:reasoning_selected';
  effort: string;
}

export interface ApprovalModeSelectedEvent {
  type: 'client:approval_mode_selected';
  mode: ApprovalMode;
}

export interface ApprovalAnsweredEvent {
  type: 'client:approval_answered';
  requestId: string;
  decision: string;
  /** Approved with the user's edited content (sent as `edited_content`). */
  edited?: boolean;
}

export interface AskAnsweredEvent {
  type: 'client:ask_answered';
  requestId: string;
  answers: Record<string, string> | null;
}

/** Never carries the password: it goes to the core only. */
export interface SudoAnsweredEvent {
  type: 'client:sudo_answered';
  requestId: string;
  approved: boolean;
}

/** The user answered a subagent's intercom question in this client (sent as `intercom_reply`). */
export interface IntercomRepliedEvent {
  type: 'client:intercom_replied';
  id: string;
  reply: string;
}

export interface NoticeEvent {
  type: 'client:notice';
  level: NoticeItem['level'];
  text: string;
  code?: string;
  action?: NoticeItem['action'];
}

export type ClientEventType = ClientEvent['type'];

export function isClientEvent(e: { type: string }): e is ClientEvent {
  return e.type.startsWith('client:');
}

/**
 * Emitted by an adapter whose server keeps the queue (SCV): the whole queue as the adapter's mirror now has it.
 * Replaces `serverQueue` in the state. A prompt the user sends while a run is going shows here, not in `run.queued`.
 */
export interface ServerQueueEvent {
  type: 'client:server_queue';
  queue: ServerQueueView;
}

/** A display-only status line of a running tool (SCV `tool.progress`); never part of the conversation. */
export interface ToolProgressEvent {
  type: 'client:tool_progress';
  /** The tool call id (the tool card's id). */
  id: string;
  text: string;
}

/**
 * A turn the server started by itself (SCV: a background job's report, `origin.kind: "background"`): shown as its own
 * turn, introduced by an info row, since no user prompt starts it. The turn's events carry `run_id: runId`.
 */
export interface ServerTurnEvent {
  type: 'client:server_turn';
  runId: string;
  /** Why it started, for the info row, e.g. "background jobs job-1, job-2 reported". */
  reason: string;
}
