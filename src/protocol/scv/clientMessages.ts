// Client → server messages of the SCV v3 wire (research scv.md §3). Every message has `type` and a client-chosen
// `request_id`; the server's answers carry that id.
import type { Attachment, PeerInfo } from './types';

interface Request {
  request_id: string;
}

interface SessionRequest extends Request {
  session_id: string;
}

export interface InitializeMessage extends Request {
  type: 'initialize';
  protocol_version: number;
  client: PeerInfo;
}

/** Socket only; a stdio server answers `error{code:"unsupported"}`. */
export interface DaemonControlMessage extends Request {
  type: 'daemon.control';
  command: { action: string; [field: string]: unknown };
}

export interface ChatAddress {
  channel: string;
  account: string;
  conversation: string;
}

export interface SessionStartMessage extends Request {
  type: 'session.start';
  /** Absolute; selects the workspace. */
  cwd: string;
  provider?: string;
  model?: string;
  base_url?: string;
  no_tools?: boolean;
  delegation_depth?: number;
  channel?: string;
  auto_approve?: boolean;
  chat?: ChatAddress;
  /** Only with `no_tools: true`. */
  system_prompt?: string;
}

/** Not supported by the server: a session belongs to the connection that started it. */
export interface SessionAttachMessage extends Request {
  type: 'session.attach';
  session_id: string;
  cwd: string;
}

/** Idle: starts a turn. Busy: queued (`queue.enqueued`). */
export interface TurnStartMessage extends SessionRequest {
  type: 'turn.start';
  prompt: string;
  attachments?: Attachment[];
}

export interface QueueUpdateMessage extends SessionRequest {
  type: 'queue.update';
  queue_id: string;
  revision: number;
  prompt: string;
}

export interface QueueMoveMessage extends SessionRequest {
  type: 'queue.move';
  queue_id: string;
  revision: number;
  /** null moves the entry to the end. */
  before_queue_id: string | null;
}

export interface QueueRemoveMessage extends SessionRequest {
  type: 'queue.remove';
  queue_id: string;
  revision: number;
}

export interface SessionPauseMessage extends SessionRequest {
  type: 'session.pause';
  paused: boolean;
}

export interface TurnCancelMessage extends SessionRequest {
  type: 'turn.cancel';
  turn_id: string;
}

export interface ApprovalResolveMessage extends SessionRequest {
  type: 'approval.resolve';
  approval_id: string;
  approved: boolean;
}

/** Idle only (`turn_active` otherwise); drops history, usage totals and the queue. */
export interface SessionClearMessage extends SessionRequest {
  type: 'session.clear';
}

export type ClientMessage =
  | InitializeMessage
  | DaemonControlMessage
  | SessionStartMessage
  | SessionAttachMessage
  | TurnStartMessage
  | QueueUpdateMessage
  | QueueMoveMessage
  | QueueRemoveMessage
  | SessionPauseMessage
  | TurnCancelMessage
  | ApprovalResolveMessage
  | SessionClearMessage;

export type ClientMessageType = ClientMessage['type'];

export type ClientMessageOf<T extends ClientMessageType> = Extract<ClientMessage, { type: T }>;
