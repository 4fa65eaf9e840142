import {
  CAPABILITY_APPROVAL_ESCALATIONS,
  CAPABILITY_CHECKPOINT_FILES,
  CAPABILITY_EDITED_CONTENT,
  CAPABILITY_GOAL,
  CAPABILITY_INTERCOM,
  CAPABILITY_OAUTH,
  CAPABILITY_PLUGINS,
  CAPABILITY_PROJECT_RULES,
  CAPABILITY_RUNTIME_SEARCH_KEYS,
  CAPABILITY_SUBAGENT_STREAM,
  CAPABILITY_SUBAGENTS,
  CAPABILITY_WORKTREE,
  CAPABILITY_WORKTREE_REVIEW,
  CORE_VERSION,
  MIN_CLIENT,
  type ClientInfo,
  type CommandOf,
} from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { refreshPrices } from '../pricing/refreshPrices';
import type { SessionEventOf } from '../runtime/eventSink';
import { agentsEvent, stageAgentsQuietly } from './agentCommands';
import { presetsEvent } from './providerEvents';
import { skillsEvent } from './skillCommands';
import { emitHistory, emitRecovered } from './sessionEvents';
import { trustPromptEvent } from './pluginCommands';
import { COMPACT_AT, DIGEST_AT } from '../agent/compaction';
import { rulesEvent } from '../rules/rulesEvent';
import { jittered, startJittered } from '../runtime/testJitter';

/**
 * The capabilities this core really has. Upstream also lists `audit`; we do not implement it, so we do not claim it.
 * `cost_update` is upstream's, and ours carries a real estimate. `approval_edited_content` (approve.edited_content) and `checkpoint_files` (restore_checkpoint.paths,
 * delete_checkpoint, checkpoint_changes, checkpoint_file) are ours, and so are `subagents` (the subagent tool and its
 * subagent_* events), `subagent_stream` (subagent_delta), `intercom` (contact_supervisor, intercom_reply) and
 * `worktree_review` (a worktree child's changes come back as reviewed inner calls), `plugins` (global and trusted workspace plugins, research A §7), `project_rules` (rules files in the
 * system prompt, the `rules` event), `goal` (goal mode, classic and CEO); `worktree` is upstream's.
 */
export const CORE_CAPABILITIES = [
  'protocol_v2',
  'run_ids',
  'session_ids',
  'event_sequence',
  'stale_event_rejection',
  'checkpoint',
  'file_change',
  'routing',
  'allow_pattern',
  'cost_update',
  CAPABILITY_EDITED_CONTENT,
  CAPABILITY_CHECKPOINT_FILES,
  CAPABILITY_SUBAGENTS,
  CAPABILITY_SUBAGENT_STREAM,
  CAPABILITY_INTERCOM,
  CAPABILITY_PROJECT_RULES,
  CAPABILITY_WORKTREE,
  CAPABILITY_WORKTREE_REVIEW,
  CAPABILITY_RUNTIME_SEARCH_KEYS,
  CAPABILITY_PLUGINS,
  CAPABILITY_GOAL,
  CAPABILITY_OAUTH,
  CAPABILITY_APPROVAL_ESCALATIONS,
] as const;

/** How long `init` waits for model discovery before answering `ready` (a slower list arrives later as `models`). */
export const READY_DISCOVERY_BUDGET_MS = 1000;

export async function handleInit(rt: CoreRuntime, cmd: CommandOf<'init'>): Promise<void> {
  const discovery = refreshModelsQuietly(rt);
  const settledInTime = await Promise.race([discovery.then(() => true), delay(READY_DISCOVERY_BUDGET_MS).then(() => false)]);
  const client = echoedClient(cmd.client);
  rt.clientCapabilities = new Set(client?.capabilities ?? []);
  rt.emit(readyEvent(rt));
  rt.emit({
    type: 'protocol_hello',
    version: CORE_VERSION,
    min_client: MIN_CLIENT,
    client_protocol_version: typeof cmd.protocol_version === 'number' ? cmd.protocol_version : 1,
    client,
    capabilities: [...CORE_CAPABILITIES],
  });
  // upstream asks right after protocol_hello, and only about project plugins nobody has decided on yet.
  if (rt.plugins.manager.pendingTrust().length > 0) rt.emit(trustPromptEvent(rt));
  for (const w of rt.config.warnings) rt.emit({ type: 'info', message: w });
  const loaded = rt.loadedAtStart;
  rt.loadedAtStart = undefined;
  if (loaded) emitRecovered(rt, loaded);
  rt.emit(skillsEvent(rt));
  stageAgentsQuietly(rt);
  rt.emit(agentsEvent(rt));
  // Not awaited: the first walk may read thousands of folders; a turn sent meanwhile awaits it (startTurn).
  void rt.rules.refresh().then(
    jittered(({ snapshot }) => rt.emit(rulesEvent(snapshot))),
    (err: Error) => rt.log(`rules refresh failed: ${err.stack ?? err}`),
  );
  if (rt.conversation.length > 0) emitHistory(rt);
  if (!settledInTime) void discovery.then(jittered(() => rt.emit({ type: 'models', models: rt.providers.models() })));
}

/** The client's ClientInfo as echoed back: its known string fields only, bounded, so no value can break the answer. */
function echoedClient(client: unknown): ClientInfo | null {
  if (typeof client !== 'object' || client === null || Array.isArray(client)) return null;
  const { name, version, capabilities } = client as Record<string, unknown>;
  const echoed: ClientInfo = {};
  if (typeof name === 'string') echoed.name = name.slice(0, 200);
  if (typeof version === 'string') echoed.version = version.slice(0, 200);
  if (Array.isArray(capabilities)) {
    echoed.capabilities = capabilities
      .filter((c): c is string => typeof c === 'string')
      .slice(0, 100)
      .map((c) => c.slice(0, 100));
  }
  return echoed;
}

function readyEvent(rt: CoreRuntime): SessionEventOf<'ready'> {
  const active = rt.providers.activeConfig;
  return {
    type: 'ready',
    models: rt.providers.models(),
    authed: rt.providers.loggedIn(rt.providers.active),
    anyLoggedIn: rt.providers.anyLoggedIn(),
    workspace: rt.workspace,
    approval: rt.approvals.mode,
    base_url: active?.baseUrl ?? rt.config.baseUrl,
    provider: rt.providers.active,
    providerKind: active?.kind ?? 'openai',
    provider_kind: active?.kind ?? 'openai',
    has_key: rt.providers.hasKey(rt.providers.active),
    providers: rt.providers.providers.map((p) => p.name),
    providerPresets: presetsEvent(rt).presets,
    bash_timeout_secs: rt.config.bashTimeoutSecs,
    idle_timeout_secs: rt.config.idleTimeoutSecs,
    auto_compact: rt.config.autoCompact,
    context_compact_at: COMPACT_AT,
    context_digest_at: DIGEST_AT,
    sandbox: 'none',
    shell: rt.config.shell,
    sandboxReady: false,
    resumed_messages: rt.conversation.length,
    session_file: rt.conversation.path ?? null,
    plugins: rt.plugins.manager.list().map((p) => p.name),
    plugins_skipped: rt.plugins.manager.pendingTrust().map((p) => p.name),
  };
}

async function refreshModelsQuietly(rt: CoreRuntime): Promise<void> {
  void startJittered(() => refreshPrices(rt));
  const errors = await rt.providers.refresh().catch((err: Error) => [err.message]);
  for (const e of errors) rt.log(`model discovery: ${e}`);
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
