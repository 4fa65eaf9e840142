// Structured types shared by SCV v3 client messages and server events (research scv.md §5). Field names are the wire's.
// Enumerations are open: a newer server may send values this client does not know (serde's `unknown` fallthrough).

export interface PeerInfo {
  name: string;
  version: string;
}

export type AttachmentKind = 'image' | 'audio' | 'video' | 'file' | 'sticker';

/** A file on the server's host, sent with a prompt. */
export interface Attachment {
  kind: AttachmentKind;
  /** Absolute path of a regular file (not a symlink) on the server's host. */
  path: string;
  name?: string;
  mime?: string;
  size: number;
  transcript?: string;
}

export interface QueueEntry {
  queue_id: string;
  /** Bumped on every change; every queue operation names the revision it saw. */
  revision: number;
  prompt: string;
  /** The submitting client's label. */
  submitter: string;
  attachments?: Attachment[];
}

/** One turn's tokens; both omitted when the provider does not report them. */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
}

export type OriginKind = 'background' | (string & {});

/** Why the server started a turn by itself. */
export interface TurnOrigin {
  kind: OriginKind;
  /** The background jobs the turn reports. */
  jobs?: string[];
  retry_seconds?: number;
  outcomes?: JobOutcome[];
}

export type JobStatus = 'running' | 'completed' | 'failed' | 'declined' | 'timeout' | 'cancelled' | 'unknown' | (string & {});

/** A background job a tool call started or settled (`tool.completed.jobs`). */
export interface JobChange {
  job: string;
  tool: string;
  agent?: string;
  status: JobStatus;
  task?: string;
  journal?: string;
  outcome?: JobOutcome;
}

/** A background job's result, delivered directly when the model could not report it (`background.reported`). */
export interface JobReport {
  job: string;
  agent: string;
  task: string;
  status: JobStatus;
  session?: string;
  /** The agent's reply: untrusted, bounded. */
  reply: string;
  outcome?: JobOutcome;
}

export type ReviewOutcome = 'approved' | 'unresolved' | 'escalated' | 'no_verdict' | 'stopped' | (string & {});
export type LandingStatus = 'not_requested' | 'not_attempted' | 'landed' | 'not_landed' | 'failed' | 'unknown' | (string & {});

export interface ReviewSummary {
  outcome: ReviewOutcome;
  [field: string]: unknown;
}

export interface LandingSummary {
  status: LandingStatus;
  [field: string]: unknown;
}

/** How a reviewed delegation job ended. */
export interface JobOutcome {
  job: string;
  review: ReviewSummary;
  landing: LandingSummary;
}

/** The daemon's state (socket only; never seen over stdio). Its many optional parts are left open. */
export interface DaemonStatus {
  version: string;
  pid: number;
  components: unknown[];
  delegations: Record<string, unknown>;
  [field: string]: unknown;
}

/** `ToolRisk` of SCV's core: what selected the approval rule. */
export type ScvRisk = 'read_only' | 'filesystem' | 'process' | 'delegate' | 'network' | (string & {});

/** Stable error codes of `error` and `turn.failed`; unknown codes arrive as they are. */
export const ERROR_CODES = [
  'invalid_json',
  'not_initialized',
  'version_mismatch',
  'invalid_request',
  'unsupported',
  'session_not_found',
  'turn_active',
  'turn_not_found',
  'approval_not_found',
  'queue_limit',
  'queue_not_found',
  'queue_conflict',
  'component_error',
  'delegation_error',
  'restart_error',
  'confirm_error',
  'internal_error',
  'provider_error',
  'context_limit',
  'step_limit',
  'history_limit',
  'response_limit',
  'tool_limit',
  'unknown',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number] | (string & {});

/** Why a tool call failed (`tool.completed.error`); absent on success and from servers before 0.3.0. */
export const TOOL_ERROR_KINDS = [
  'denied',
  'cancelled',
  'invalid_arguments',
  'unavailable',
  'limit',
  'failed',
  'unknown_tool',
  'unknown',
] as const;

export type ToolErrorKind = (typeof TOOL_ERROR_KINDS)[number] | (string & {});

/** `--approval-policy`: which calls the server asks a person about. */
export type ApprovalPolicy = 'on-risk' | 'always' | 'never';
