// Server → client events of the SCV v3 wire (research scv.md §4), discriminated by `type`. Session-scoped events carry
// the session's consecutive `seq`; `initialized`, `session.started`, `daemon.status` and `error` carry none. A type this
// client does not know is an `UnknownServerEvent`: skipped, but it may have used up a `seq` number.
import type {
  DaemonStatus,
  ErrorCode,
  JobChange,
  JobOutcome,
  JobReport,
  PeerInfo,
  QueueEntry,
  ScvRisk,
  ToolErrorKind,
  TurnOrigin,
  Usage,
} from './types';

interface Answer {
  /** The client request this answers or belongs to (server-made, e.g. "background:…", for server-started turns). */
  request_id: string;
}

interface SessionEvent extends Answer {
  session_id: string;
  seq: number;
}

interface TurnEvent extends SessionEvent {
  turn_id: string;
}

export interface DaemonStatusEvent extends Answer {
  type: 'daemon.status';
  status: DaemonStatus;
}

export interface InitializedEvent extends Answer {
  type: 'initialized';
  protocol_version: number;
  server: PeerInfo;
}

export interface SessionStartedEvent extends Answer {
  type: 'session.started';
  session_id: string;
  /** The canonical workspace directory. */
  cwd: string;
  model: string;
  context_max_tokens: number;
  max_server_frame_bytes: number;
  max_transcript_bytes: number;
  max_transcript_items: number;
  max_prompt_history_bytes: number;
  max_prompt_history_items: number;
}

export interface QueueSnapshotEvent extends Omit<SessionEvent, 'request_id'> {
  type: 'queue.snapshot';
  request_id: string | null;
  entries: QueueEntry[];
  paused: boolean;
}

export interface QueueEnqueuedEvent extends SessionEvent {
  type: 'queue.enqueued';
  entry: QueueEntry;
  /** Its index in the queue, from 0. */
  position: number;
}

export interface QueueUpdatedEvent extends SessionEvent {
  type: 'queue.updated';
  entry: QueueEntry;
}

export interface QueueMovedEvent extends SessionEvent {
  type: 'queue.moved';
  queue_id: string;
  /** Its index in the queue after the move, from 0. */
  position: number;
  revision: number;
}

export interface QueueRemovedEvent extends SessionEvent {
  type: 'queue.removed';
  queue_id: string;
  revision: number;
}

/** `request_id` is the original submitter's. */
export interface QueueDequeuedEvent extends SessionEvent {
  type: 'queue.dequeued';
  queue_id: string;
  turn_id: string;
}

export interface SessionPausedEvent extends SessionEvent {
  type: 'session.paused';
  paused: boolean;
}

export interface TurnStartedEvent extends TurnEvent {
  type: 'turn.started';
  /** Only for turns the server started by itself. */
  origin?: TurnOrigin;
}

export interface AssistantDeltaEvent extends TurnEvent {
  type: 'assistant.delta';
  content: string;
}

/** The canonical text of one model step (several per turn; empty when the step only calls tools). */
export interface AssistantCompletedEvent extends TurnEvent {
  type: 'assistant.completed';
  content: string;
}

/** Emitted for every call, before any `approval.requested` for it. */
export interface ToolProposedEvent extends TurnEvent {
  type: 'tool.proposed';
  call_id: string;
  name: string;
  /** Exactly as the model sent them. */
  arguments: unknown;
}

export interface ApprovalRequestedEvent extends TurnEvent {
  type: 'approval.requested';
  approval_id: string;
  call_id: string;
  name: string;
  risk: ScvRisk;
  cwd: string;
  summary: string;
}

export interface ToolStartedEvent extends TurnEvent {
  type: 'tool.started';
  call_id: string;
  name: string;
}

/** Display-only status lines; never part of the history. */
export interface ToolProgressEvent extends TurnEvent {
  type: 'tool.progress';
  call_id: string;
  text: string;
}

export interface ToolCompletedEvent extends TurnEvent {
  type: 'tool.completed';
  call_id: string;
  name: string;
  success: boolean;
  /** What the model sees. */
  output: string;
  truncated: boolean;
  error?: ToolErrorKind;
  jobs?: JobChange[];
}

export interface ContextCompactedEvent extends TurnEvent {
  type: 'context.compacted';
  before_tokens: number;
  after_tokens: number;
  removed_messages: number;
}

export interface SessionTrimmedEvent extends SessionEvent {
  type: 'session.trimmed';
  removed_messages: number;
  history_bytes: number;
}

export interface SessionClearedEvent extends SessionEvent {
  type: 'session.cleared';
}

export interface TurnCompletedEvent extends TurnEvent {
  type: 'turn.completed';
  steps: number;
  usage: Usage;
  origin?: TurnOrigin;
}

/** The turn's history changes are rolled back; its file changes are not. */
export interface TurnCancelledEvent extends TurnEvent {
  type: 'turn.cancelled';
  origin?: TurnOrigin;
}

export interface TurnFailedEvent extends TurnEvent {
  type: 'turn.failed';
  code: ErrorCode;
  message: string;
  origin?: TurnOrigin;
}

/** Background job results the model could not report (0.3.11+). No request or turn. */
export interface BackgroundReportedEvent extends Omit<SessionEvent, 'request_id'> {
  type: 'background.reported';
  code: ErrorCode;
  message: string;
  attempts: number;
  reports: JobReport[];
}

/** Final outcomes of reviewed jobs stopped by `agent_cancel` (0.3.14+). No request or turn. */
export interface BackgroundUpdatedEvent extends Omit<SessionEvent, 'request_id'> {
  type: 'background.updated';
  outcomes: JobOutcome[];
}

/** A refused request, or a connection-level error; `fatal` means the connection is unusable. */
export interface ErrorEvent {
  type: 'error';
  request_id?: string;
  code: ErrorCode;
  message: string;
  fatal: boolean;
}

export type ServerEvent =
  | DaemonStatusEvent
  | InitializedEvent
  | SessionStartedEvent
  | QueueSnapshotEvent
  | QueueEnqueuedEvent
  | QueueUpdatedEvent
  | QueueMovedEvent
  | QueueRemovedEvent
  | QueueDequeuedEvent
  | SessionPausedEvent
  | TurnStartedEvent
  | AssistantDeltaEvent
  | AssistantCompletedEvent
  | ToolProposedEvent
  | ApprovalRequestedEvent
  | ToolStartedEvent
  | ToolProgressEvent
  | ToolCompletedEvent
  | ContextCompactedEvent
  | SessionTrimmedEvent
  | SessionClearedEvent
  | TurnCompletedEvent
  | TurnCancelledEvent
  | TurnFailedEvent
  | BackgroundReportedEvent
  | BackgroundUpdatedEvent
  | ErrorEvent;

export type ServerEventType = ServerEvent['type'];

export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>;

/** A newer server's event: skipped by this client. */
export interface UnknownServerEvent {
  type: string;
  seq?: number;
  [field: string]: unknown;
}

// `satisfies Record<ServerEventType, …>` makes the compiler reject a missing or an unknown type.
const SERVER_EVENT_TABLE = {
  'daemon.status': { seq: false },
  initialized: { seq: false },
  'session.started': { seq: false },
  'queue.snapshot': { seq: true },
  'queue.enqueued': { seq: true },
  'queue.updated': { seq: true },
  'queue.moved': { seq: true },
  'queue.removed': { seq: true },
  'queue.dequeued': { seq: true },
  'session.paused': { seq: true },
  'turn.started': { seq: true },
  'assistant.delta': { seq: true },
  'assistant.completed': { seq: true },
  'tool.proposed': { seq: true },
  'approval.requested': { seq: true },
  'tool.started': { seq: true },
  'tool.progress': { seq: true },
  'tool.completed': { seq: true },
  'context.compacted': { seq: true },
  'session.trimmed': { seq: true },
  'session.cleared': { seq: true },
  'turn.completed': { seq: true },
  'turn.cancelled': { seq: true },
  'turn.failed': { seq: true },
  'background.reported': { seq: true },
  'background.updated': { seq: true },
  error: { seq: false },
} as const satisfies Record<ServerEventType, { seq: boolean }>;

export const SERVER_EVENT_TYPES: readonly ServerEventType[] = Object.freeze(Object.keys(SERVER_EVENT_TABLE) as ServerEventType[]);

export function isServerEventType(type: string): type is ServerEventType {
  return Object.hasOwn(SERVER_EVENT_TABLE, type);
}

/** Whether events of this type carry the session's `seq`. */
export function carriesSeq(type: ServerEventType): boolean {
  return SERVER_EVENT_TABLE[type].seq;
}

/** The terminal events of a turn: exactly one of them ends every turn. */
export const TERMINAL_TURN_EVENT_TYPES: readonly ServerEventType[] = Object.freeze(['turn.completed', 'turn.cancelled', 'turn.failed']);
