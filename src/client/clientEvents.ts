import type { ApprovalModeName, CoreKind, CoreStatus, NoticeItem } from '../shared/sessionState';

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
  | NoticeEvent;

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
  mode: ApprovalModeName;
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
