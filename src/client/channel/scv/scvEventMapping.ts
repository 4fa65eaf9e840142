// How single SCV events and facts look as Catalyst v2 events: the stateless half of the translation (scvTranslator.ts
// holds the state: which turn runs, what was proposed, the queue, the rules).
import type { ApprovalMode, CommandType, EventOf, ToolStatus } from '../../../protocol';
import type {
  ApprovalPolicy,
  JobOutcome,
  JobReport,
  LandingSummary,
  PeerInfo,
  ReviewSummary,
  ServerEventOf,
  ServerEventType,
  TurnOrigin,
} from '../../../protocol/scv';
import { type Untrusted, num, record, records, str, strings } from '../../state/eventFields';
import type { ScvApprovalRequestEvent } from '../../state/reduceInteraction';

/** A server event of type `K` as the translator reads it: the mirror's field names, values still unchecked. */
export type UntrustedServerEvent<K extends ServerEventType> = Untrusted<ServerEventOf<K>> & { readonly type: K };

/** The lifecycle fields every translated turn event carries. */
export interface TurnScope {
  session_id: string;
  run_id?: string;
}

/** What SCV's server capabilities look like to the UI. */
export const SCV_CAPABILITIES = ['server_queue', 'tool_progress'] as const;

export const ARGS_PREVIEW_CHARS = 2000;
export const TRUNCATED_OUTPUT_NOTE = '[output truncated by the server]';
export const CANCELLED_TURN_NOTE = "SCV rolled back this turn's conversation; files it changed stay changed";
const REPLY_PREVIEW_CHARS = 200;

/** SCV's `--approval-policy` in Catalyst's approval-mode terms (on-risk asks about everything but reads). */
export function approvalModeOf(policy: ApprovalPolicy | undefined): ApprovalMode {
  if (policy === 'always') return 'always';
  if (policy === 'never') return 'never';
  return 'destructive';
}

export function protocolHelloEvent(server: PeerInfo | undefined, client: PeerInfo, scope: TurnScope): EventOf<'protocol_hello'> {
  return {
    type: 'protocol_hello',
    version: server?.version ?? '',
    protocol_version: 2,
    min_client: '',
    client_protocol_version: null,
    client: { name: client.name, version: client.version },
    capabilities: [...SCV_CAPABILITIES],
    session_id: scope.session_id,
  };
}

export interface ReadyFacts {
  model: string;
  contextMaxTokens: number | undefined;
  workspace: string;
  policy: ApprovalPolicy | undefined;
}

/** SCV has one model per session and no providers, keys, sandbox or plugins in the client's reach: neutral values. */
export function readyEvent(f: ReadyFacts, scope: TurnScope): EventOf<'ready'> {
  const model: EventOf<'ready'>['models'][number] = { id: f.model, name: f.model };
  if (f.contextMaxTokens !== undefined) model.context_window = f.contextMaxTokens;
  return {
    type: 'ready',
    models: f.model ? [model] : [],
    authed: true,
    anyLoggedIn: true,
    workspace: f.workspace,
    approval: approvalModeOf(f.policy),
    base_url: '',
    provider: 'scv',
    providerKind: 'scv',
    providers: [],
    providerPresets: [],
    bash_timeout_secs: 0,
    auto_compact: false,
    context_compact_at: 0,
    context_digest_at: 0,
    sandbox: 'none',
    shell: 'bash',
    sandboxImage: '',
    sandboxCpus: 0,
    sandboxMemoryMb: 0,
    sandboxNetworkMode: '',
    sandboxReady: false,
    resumed_messages: 0,
    plugins: [],
    plugins_skipped: [],
    session_id: scope.session_id,
  };
}

export function toolCallEvent(e: UntrustedServerEvent<'tool.proposed'>, scope: TurnScope): EventOf<'tool_call'> {
  return { type: 'tool_call', id: str(e.call_id) ?? '', name: str(e.name) ?? '', args: jsonOf(e.arguments), ...scope };
}

/** The outcome comes from `error`, never from parsing `output`. */
export function toolResultEvent(e: UntrustedServerEvent<'tool.completed'>, scope: TurnScope): EventOf<'tool_result'> {
  const ok = e.success === true;
  const output = typeof e.output === 'string' ? e.output : e.output === undefined ? '' : jsonOf(e.output);
  return {
    type: 'tool_result',
    id: str(e.call_id) ?? '',
    ok,
    output: e.truncated === true ? `${output}${output && !output.endsWith('\n') ? '\n' : ''}${TRUNCATED_OUTPUT_NOTE}` : output,
    status: toolStatusOf(ok, str(e.error)),
    ...scope,
  };
}

/** A failure other than a denial or a cancellation shows as `failed`, the card status of a tool that errored. */
export function toolStatusOf(success: boolean, error: string | undefined): ToolStatus {
  if (success) return 'success';
  if (error === 'denied') return 'denied';
  if (error === 'cancelled') return 'cancelled';
  return 'failed';
}

/** SCV sends no diff: the client rebuilds a `write` proposal from the tool_call's arguments. */
export function approvalRequestEvent(
  e: UntrustedServerEvent<'approval.requested'>,
  proposedArguments: unknown,
  createdAt: number,
  scope: TurnScope & { run_id: string },
): ScvApprovalRequestEvent {
  const risk = str(e.risk) ?? '';
  const catalystRisk = risk === 'read_only' ? 'readonly' : 'destructive';
  return {
    type: 'approval_request',
    request_id: str(e.approval_id) ?? '',
    tool_call_id: str(e.call_id) ?? '',
    tool: str(e.name) ?? '',
    risk: catalystRisk,
    requested_permission: catalystRisk,
    created_at: createdAt,
    args: argsPreview(proposedArguments),
    summary: str(e.summary) ?? '',
    scv_risk: risk,
    ...scope,
  };
}

export function argsPreview(args: unknown): string {
  if (args === undefined) return '';
  const json = jsonOf(args);
  return json.length > ARGS_PREVIEW_CHARS ? `${json.slice(0, ARGS_PREVIEW_CHARS - 1)}…` : json;
}

export function compactedEvent(e: UntrustedServerEvent<'context.compacted'>, scope: TurnScope): EventOf<'compacted'> {
  return {
    type: 'compacted',
    before_tokens: num(e.before_tokens) ?? 0,
    after_tokens: num(e.after_tokens) ?? 0,
    within_limit: true,
    summary_chars: 0,
    scope: 'session',
    ...scope,
  };
}

export function infoEvent(message: string, scope: TurnScope): EventOf<'info'> {
  return { type: 'info', message, ...scope };
}

export function errorEvent(code: string, message: string, scope: Partial<TurnScope> = {}): EventOf<'error'> {
  return { type: 'error', code, message, ...definedScope(scope) };
}

export function trimmedMessage(e: UntrustedServerEvent<'session.trimmed'>): string {
  const n = num(e.removed_messages) ?? 0;
  return `SCV removed ${n} older message${n === 1 ? '' : 's'} to stay within its history limit.`;
}

/** `background.reported`: results delivered to the user because the model could not report them. */
export function backgroundReportedMessage(e: UntrustedServerEvent<'background.reported'>): string {
  const reports = records<JobReport>(e.reports);
  const why = str(e.message);
  const head = `Background job results${why ? ` (the model could not report them: ${why})` : ''}`;
  if (reports.length === 0) return `${head}.`;
  return `${head}:\n${reports.map(jobReportLine).join('\n')}`;
}

function jobReportLine(r: Untrusted<JobReport>): string {
  const reply = (str(r.reply) ?? '').trim().replace(/\s+/g, ' ');
  const agent = str(r.agent);
  const status = str(r.status) ?? 'unknown';
  const outcome = record<JobOutcome>(r.outcome);
  const label = `${str(r.job) ?? 'job'}${agent ? ` (${agent})` : ''}: ${status}${outcome ? `, ${outcomeText(outcome)}` : ''}`;
  return `- ${label}${reply ? ` — ${reply.length > REPLY_PREVIEW_CHARS ? `${reply.slice(0, REPLY_PREVIEW_CHARS - 1)}…` : reply}` : ''}`;
}

/** `background.updated`: final outcomes of reviewed jobs that were stopped. */
export function backgroundUpdatedMessage(e: UntrustedServerEvent<'background.updated'>): string {
  const outcomes = records<JobOutcome>(e.outcomes);
  if (outcomes.length === 0) return 'Background jobs were updated.';
  return `Background jobs updated:\n${outcomes.map((o) => `- ${str(o.job) ?? 'job'}: ${outcomeText(o)}`).join('\n')}`;
}

function outcomeText(o: Untrusted<JobOutcome>): string {
  const review = str(record<ReviewSummary>(o.review)?.outcome);
  const landing = str(record<LandingSummary>(o.landing)?.status);
  const parts = [review ? `review ${review.replace(/_/g, ' ')}` : '', landing ? `landing ${landing.replace(/_/g, ' ')}` : ''].filter(
    Boolean,
  );
  return parts.length ? parts.join(', ') : 'no outcome reported';
}

/** Why the server started a turn by itself, for the transcript's info row. */
export function serverTurnReason(origin: unknown): string {
  const o = record<TurnOrigin>(origin);
  const jobs = strings(o?.jobs);
  const kind = str(o?.kind);
  if (jobs.length) return `background job${jobs.length === 1 ? '' : 's'} ${jobs.join(', ')} reported`;
  if (kind === 'background' || kind === undefined) return 'background jobs reported';
  return `${kind.replace(/_/g, ' ')}`;
}

/** What the user would call a Catalyst command SCV has no counterpart for. */
const UNSUPPORTED_NAMES: Partial<Record<CommandType, string>> = {
  init: 'A second handshake',
  steer: 'Steering a running turn',
  undo: 'Undo',
  compact: 'Compacting on request',
  user_bash: 'Running shell commands yourself',
  apply_skill: 'Applying a skill',
  context: 'The context breakdown',
  usage: 'The provider usage report',
  runtime_status: 'The runtime status',
  set_key: 'Setting an API key',
  set_search_key: 'Setting a search key',
  set_provider: 'Switching providers',
  list_provider_presets: 'Provider presets',
  login: 'Logging in',
  logout: 'Logging out',
  login_oauth: 'Logging in with OAuth',
  oauth_code: 'Logging in with OAuth',
  add_custom_provider: 'Adding a provider',
  discover_provider_models: 'Model discovery',
  refresh_models: 'Refreshing models',
  set_approval: 'Changing the approval mode while the server runs',
  set_config: 'Changing the configuration',
  list_sessions: 'The session list',
  load_session: 'Loading a saved session',
  new_session: 'Starting a new session file',
  rename_session: 'Renaming a session',
  delete_session: 'Deleting a session',
  pin_session: 'Pinning a session',
  create_checkpoint: 'Creating a checkpoint',
  list_checkpoints: 'The checkpoint list',
  restore_checkpoint: 'Restoring a checkpoint',
  delete_checkpoint: 'Deleting a checkpoint',
  checkpoint_changes: 'Comparing with a checkpoint',
  checkpoint_file: 'Comparing with a checkpoint',
  ask_reply: 'Answering a question',
  sudo_reply: 'Answering a sudo request',
  save_memory: 'Saving a memory note',
  list_memory: 'The memory list',
  forget_memory: 'Forgetting a memory note',
  refresh_memory: 'Reloading memory',
};

export function unsupportedMessage(type: string): string {
  return notAvailable((UNSUPPORTED_NAMES as Record<string, string | undefined>)[type] ?? `The ${type} command`);
}

export function notAvailable(what: string): string {
  return `${what} is not available with an SCV server`;
}

function jsonOf(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

function definedScope(scope: Partial<TurnScope>): Partial<TurnScope> {
  const out: Partial<TurnScope> = {};
  if (scope.session_id !== undefined) out.session_id = scope.session_id;
  if (scope.run_id !== undefined) out.run_id = scope.run_id;
  return out;
}
