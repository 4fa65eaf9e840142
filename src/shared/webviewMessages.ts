import type { Patch } from './statePatch';
import { APPROVAL_DECISIONS, APPROVAL_MODES, type ApprovalDecision, type ApprovalMode, type SessionState } from './sessionState';

/**
 * Host ↔ webview messages: one typed union each way. The webview says `ready`; the host answers with a `snapshot`, then
 * sends `patches` batched per frame with consecutive sequence numbers. A webview that sees a gap sends `resync`.
 */

export type HostToWebview =
  | { type: 'snapshot'; seq: number; state: SessionState; view: ViewContext }
  | { type: 'patches'; seq: number; patches: Patch[] }
  | { type: 'completions'; requestId: number; kind: CompletionKind; items: CompletionItem[] }
  | { type: 'insertText'; text: string } /* Ask About Selection, Add File to Chat: into the composer */
  | { type: 'focusInput' };

export interface ViewContext {
  /** 'sidebar' for the WebviewView, 'editor' for the editor-tab panel, 'controlCenter' for goal mode's panel (renders `state.goal`). */
  placement: 'sidebar' | 'editor' | 'controlCenter';
  slashCommands: SlashCommandInfo[];
}

export interface SlashCommandInfo {
  name: string;
  description: string;
  args?: string;
}
export type CompletionKind = 'file' | 'slash';
export interface CompletionItem {
  label: string;
  detail?: string;
  insertText: string;
}

/** Host commands the webview may ask for (buttons in error cards, the welcome view, menus). */
export const HOST_ACTIONS = [
  'login',
  'logout',
  'restartCore',
  'showLog',
  'openSettings',
  'openChatInEditor',
  'answerSudo',
  'showStats',
  'reviewApproval',
] as const;
export type HostAction = (typeof HOST_ACTIONS)[number];

/**
 * The chat's checkpoint row: Compare (the Source Control view / the first changed file's diff), Restore… (the host asks
 * which: files, conversation or both) or one of those directly.
 */
export const CHECKPOINT_ROW_ACTIONS = ['compare', 'restore', 'restoreFiles', 'restoreConversation', 'restoreBoth'] as const;
export type CheckpointRowAction = (typeof CHECKPOINT_ROW_ACTIONS)[number];

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'resync'; lastSeq: number }
  | { type: 'send'; text: string; images: string[] /* data:image/…;base64 URLs */ }
  | { type: 'steer'; text: string }
  | { type: 'abort' }
  | { type: 'clearQueue' }
  /** `!cmd` / `!!cmd` in the composer: user_bash (excludeFromContext for `!!`). */
  | { type: 'userBash'; command: string; excludeFromContext: boolean }
  | { type: 'approve'; requestId: string; decision: ApprovalDecision; pattern?: string }
  | { type: 'askReply'; requestId: string; answers: Record<string, string> | null }
  /** `provider`: the group it was picked from; another than the active one is switched to first (set_provider). */
  | { type: 'setModel'; model: string; provider?: string }
  | { type: 'setReasoning'; effort: string }
  | { type: 'setApprovalMode'; mode: ApprovalMode }
  | { type: 'slash'; name: string; args: string }
  | { type: 'listSessions' }
  | { type: 'newSession' }
  | { type: 'openSession'; path: string }
  | { type: 'renameSession'; path: string; title: string }
  | { type: 'pinSession'; path: string; pinned: boolean }
  | { type: 'deleteSession'; path: string }
  | { type: 'complete'; requestId: number; kind: CompletionKind; query: string }
  | { type: 'copy'; text: string }
  | { type: 'insertAtCursor'; text: string }
  | { type: 'openFile'; path: string; line?: number }
  /* A web tool card's link: the host opens only an absolute http(s) URL, in the browser. */
  | { type: 'openExternal'; url: string }
  | { type: 'action'; action: HostAction; arg?: string }
  | { type: 'checkpointAction'; id: string; action: CheckpointRowAction }
  /** A server-side queue (SCV, capability server_queue): edit, reorder (null = to the end), remove, pause. */
  | { type: 'queueEdit'; id: string; prompt: string }
  | { type: 'queueMove'; id: string; beforeId: string | null }
  | { type: 'queueRemove'; id: string }
  | { type: 'queuePause'; paused: boolean }
  /** The answer to a subagent's intercom question (IntercomItem id); never empty. */
  | { type: 'intercomReply'; id: string; reply: string }
  /** Goal mode (the Control Center, /goal): start_goal with the form's fields; the host fills model from the session. */
  | { type: 'goalStart'; goal: string; autoDeploy: boolean; ceoMode: boolean; concurrency?: number; maxTasks?: number; model?: string }
  | { type: 'goalAction'; action: GoalAction; feedback?: string };

/** approve_goal_plan, revise_goal (with feedback), cancel_goal, goal_status; and the host's own: open the Control Center. */
export const GOAL_ACTIONS = ['approve', 'revise', 'cancel', 'refresh', 'openControlCenter'] as const;
export type GoalAction = (typeof GOAL_ACTIONS)[number];

export const MAX_TEXT = 1_000_000;
export const MAX_IMAGES = 8;
export const MAX_IMAGE_URL = 20 * 1024 * 1024;
/** An ask form has a handful of questions; more answers than this is not a form. */
export const MAX_ASK_ANSWERS = 100;

type Check = (m: Record<string, unknown>) => boolean;
const str = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const nonEmpty = (v: unknown, max = MAX_TEXT): v is string => str(v, max) && v.length > 0;
const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: unknown): v is T =>
    typeof v === 'string' && (values as readonly string[]).includes(v);
const isImage = (v: unknown) => str(v, MAX_IMAGE_URL) && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(v);
const plainRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const CHECKS: { [K in WebviewToHost['type']]: Check } = {
  ready: () => true,
  resync: (m) => int(m.lastSeq),
  send: (m) => nonEmpty(m.text) && Array.isArray(m.images) && m.images.length <= MAX_IMAGES && m.images.every(isImage),
  steer: (m) => nonEmpty(m.text),
  abort: () => true,
  clearQueue: () => true,
  userBash: (m) => nonEmpty(m.command, 100_000) && (m.command as string).trim().length > 0 && typeof m.excludeFromContext === 'boolean',
  approve: (m) =>
    nonEmpty(m.requestId, 300) && oneOf(APPROVAL_DECISIONS)(m.decision) && (m.pattern === undefined || nonEmpty(m.pattern, 4096)),
  askReply: (m) =>
    nonEmpty(m.requestId, 300) &&
    (m.answers === null ||
      (plainRecord(m.answers) &&
        Object.keys(m.answers).length <= MAX_ASK_ANSWERS &&
        Object.entries(m.answers).every(([k, v]) => k.length <= 300 && str(v, 100_000)))),
  setModel: (m) => nonEmpty(m.model, 500) && (m.provider === undefined || nonEmpty(m.provider, 200)),
  setReasoning: (m) => nonEmpty(m.effort, 50),
  setApprovalMode: (m) => oneOf(APPROVAL_MODES)(m.mode),
  slash: (m) => typeof m.name === 'string' && /^[a-z][a-z0-9-]{0,40}$/.test(m.name) && str(m.args, 100_000),
  listSessions: () => true,
  newSession: () => true,
  openSession: (m) => nonEmpty(m.path, 4096),
  renameSession: (m) => nonEmpty(m.path, 4096) && str(m.title, 200),
  pinSession: (m) => nonEmpty(m.path, 4096) && typeof m.pinned === 'boolean',
  deleteSession: (m) => nonEmpty(m.path, 4096),
  complete: (m) => int(m.requestId) && oneOf(['file', 'slash'] as const)(m.kind) && str(m.query, 500),
  copy: (m) => str(m.text),
  insertAtCursor: (m) => str(m.text),
  openFile: (m) => nonEmpty(m.path, 4096) && (m.line === undefined || int(m.line)),
  openExternal: (m) => typeof m.url === 'string' && isExternalUrl(m.url),
  action: (m) => oneOf(HOST_ACTIONS)(m.action) && (m.arg === undefined || str(m.arg, 4096)),
  checkpointAction: (m) => nonEmpty(m.id, 200) && !/[\u0000-\u001f]/.test(m.id as string) && oneOf(CHECKPOINT_ROW_ACTIONS)(m.action),
  queueEdit: (m) => nonEmpty(m.id, 200) && nonEmpty(m.prompt),
  queueMove: (m) => nonEmpty(m.id, 200) && (m.beforeId === null || nonEmpty(m.beforeId, 200)),
  queueRemove: (m) => nonEmpty(m.id, 200),
  queuePause: (m) => typeof m.paused === 'boolean',
  intercomReply: (m) => nonEmpty(m.id, 300) && nonEmpty(m.reply, 64 * 1024) && (m.reply as string).trim().length > 0,
  goalStart: (m) =>
    nonEmpty(m.goal, 64 * 1024) &&
    typeof m.autoDeploy === 'boolean' &&
    typeof m.ceoMode === 'boolean' &&
    (m.concurrency === undefined || (int(m.concurrency) && m.concurrency >= 1 && m.concurrency <= 32)) &&
    (m.maxTasks === undefined || (int(m.maxTasks) && m.maxTasks >= 1 && m.maxTasks <= 64)) &&
    (m.model === undefined || nonEmpty(m.model, 500)),
  goalAction: (m) =>
    oneOf(GOAL_ACTIONS)(m.action) &&
    (m.action === 'revise' ? nonEmpty(m.feedback, 64 * 1024) && (m.feedback as string).trim().length > 0 : m.feedback === undefined),
};

/** Validates a message from the webview (untrusted: it renders model output). Returns it typed, or undefined. */
export function validateWebviewMessage(raw: unknown): WebviewToHost | undefined {
  if (!plainRecord(raw) || typeof raw.type !== 'string' || !Object.prototype.hasOwnProperty.call(CHECKS, raw.type)) return undefined;
  return CHECKS[raw.type as WebviewToHost['type']](raw) ? (raw as unknown as WebviewToHost) : undefined;
}

/** Stable `data-testid` values the end-to-end tests rely on; the webview must render them. */
export const TEST_IDS = {
  composer: 'composer-input',
  sendButton: 'send-button',
  abortButton: 'abort-button',
  steerButton: 'steer-button',
  queuedChip: 'queued-prompt',
  transcript: 'transcript',
  userMessage: 'user-message',
  visionNote: 'vision-note',
  assistantMessage: 'assistant-message',
  /** A finished turn's cost line under its last reply (data-usd: the estimate, absent when a price is unknown). */
  turnCost: 'turn-cost',
  thinking: 'thinking-block',
  toolCard: 'tool-card',
  /** A command the user ran with `!cmd` / `!!cmd`: its output card (data-ok, data-excluded). */
  bashBlock: 'bash-block',
  webResult: 'web-result',
  webLink: 'web-link',
  approvalCard: 'approval-card',
  approvalAccept: 'approval-accept',
  approvalReject: 'approval-reject',
  approvalAlways: 'approval-always',
  approvalSession: 'approval-session',
  /** The approval card's "Review in Diff Editor" button (file tools). */
  approvalReview: 'approval-review',
  /** The "Review changes" list above the composer; its rows carry data-state (the approval's) and data-path. */
  reviewList: 'review-list',
  reviewListRow: 'review-list-row',
  sudoCard: 'sudo-card',
  /** The sudo card's "Enter Password…" button (the host asks for the password in a native input box). */
  sudoAnswer: 'sudo-answer',
  askForm: 'ask-form',
  notice: 'notice',
  modelPicker: 'model-picker',
  reasoningPicker: 'reasoning-picker',
  approvalModePicker: 'approval-mode-picker',
  contextMeter: 'context-meter',
  sessionsButton: 'sessions-button',
  /** The header's "Rules: N" chip, its list of the project rules files, and a row (data-path) that opens one. */
  rulesChip: 'rules-chip',
  rulesList: 'rules-list',
  rulesRow: 'rules-row',
  sessionList: 'session-list',
  sessionRow: 'session-row',
  newSessionButton: 'new-session-button',
  welcome: 'welcome',
  loginButton: 'login-button',
  coreStatus: 'core-status',
  completionList: 'completion-list',
  codeBlock: 'code-block',
  /** A checkpoint row in the transcript (data-checkpoint-id, data-state: 'restored' | 'deleted' | ''). */
  checkpointRow: 'checkpoint-row',
  checkpointCompare: 'checkpoint-compare',
  /** Opens the host's choice: files only / conversation only / both. */
  checkpointRestore: 'checkpoint-restore',
  /** SCV's server-side queue panel above the composer; rows carry data-id (queue id) and data-revision. */
  serverQueue: 'server-queue',
  serverQueueRow: 'server-queue-row',
  /** In a row: Edit (turns the row into a text field; Enter saves, Escape cancels), Move Up, Move Down, Remove. */
  serverQueueEdit: 'server-queue-edit',
  serverQueueEditInput: 'server-queue-edit-input',
  serverQueueUp: 'server-queue-up',
  serverQueueDown: 'server-queue-down',
  serverQueueRemove: 'server-queue-remove',
  /** Pause / Resume toggle of the panel; carries aria-pressed="true" while paused. */
  serverQueuePause: 'server-queue-pause',
  /** The progress lines on a tool card (SCV tool.progress). */
  toolProgress: 'tool-progress',
  /** The child rows on a `subagent` tool card; a row carries data-run-id and data-state (SubagentItem.state). */
  subagentPanel: 'subagent-panel',
  subagentRow: 'subagent-row',
  /** A subagent's intercom question (data-state: IntercomItem.state), its reply field and Send button. */
  intercomCard: 'intercom-card',
  intercomReplyInput: 'intercom-reply-input',
  intercomSend: 'intercom-send',
} as const;

/** An absolute http(s) URL without credentials, at most 2048 characters: the only links a web tool card may open. */
export function isExternalUrl(raw: string): boolean {
  if (raw.length > 2048 || /[\u0000-\u0020]/.test(raw)) return false;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname !== '';
  } catch {
    return false;
  }
}
