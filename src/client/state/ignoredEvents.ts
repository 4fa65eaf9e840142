import type { EventType } from '../../protocol';

/**
 * The core events the session model (src/client/state/sessionReducer.ts) deliberately leaves alone, each with the reason: the
 * module that handles it instead ("Handled by <path>", which eventCatalog.test.ts checks), or why nothing needs it.
 * Together with CORE_REDUCERS it covers the protocol mirror's every event type, exactly once: the compiler rejects a type
 * in neither table (sessionReducer.ts), the catalog test one in both.
 */
export const IGNORED_EVENTS = {
  advisor_status:
    "The advisor's progress (reviewing, no_key): its result comes as advisor_note, which is shown; upstream's web ignores it too.",
  oauth_prompt:
    'Handled by src/vscode/oauthLoginFlow.ts: the URL opens with openExternal, a device code is offered for copying, a code box sends oauth_code.',
  provider_presets: 'Handled by src/client/providers/providerCatalog.ts: the presets offered by Log In…, not session state.',
  search_key_set:
    'The acknowledgement of set_search_key: the Set Web Search Key command (src/vscode/searchKeyFlow.ts) confirms with its own message.',
  usage: 'Handled by src/vscode/statsDocument.ts: Show Usage and Show Stats await it as the answer to their usage request.',
  vision_config:
    'Handled by src/client/intents/facets/settingsFacet.ts: fetchVisionConfig / saveVisionConfig await it for the Vision Settings QuickPick (src/vscode/visionSettingsFlow.ts).',
  runtime_status: 'Handled by src/vscode/statsDocument.ts: Show Stats awaits it for its "Core runtime" section, not session state.',
  memory_list:
    'Handled by src/client/intents/facets/memoryFacet.ts: fetchMemory awaits it for the Show Memory list (src/vscode/memoryCommands.ts).',
  provider_models_preview:
    'The answer to discover_provider_models, which our UI does not send: Log In… lists an endpoint’s models through add_custom_provider and models.',
  umans_conc:
    "Upstream's 5-second poll of the Umans provider's concurrency (used of limit): our core does not poll it and never sends it; its plan figures come with usage.",
  checkpoints: 'Handled by src/client/checkpoints/checkpointRequests.ts: the Source Control checkpoint list, not the transcript.',
  checkpoint_changes: 'Handled by src/client/checkpoints/checkpointRequests.ts: the changed files under a checkpoint in Source Control.',
  checkpoint_file: 'Handled by src/client/checkpoints/checkpointRequests.ts: a file as a checkpoint holds it, for the diff editor.',
  audit:
    "Upstream's opt-in record of an answered approval (audit_log: true): the approval card already shows the decision, and our core keeps no audit log.",
  agents: 'Handled by src/client/intents/facets/agentFacet.ts: the answer to list_agents, shown by /agents and read by the agent picker.',
  skill_marketplace_state: 'Handled by src/vscode/skillMarketplace.ts: the Browse Skills flow awaits it as the answer to its request.',
  skill_marketplace_results: 'Handled by src/vscode/skillMarketplace.ts: the Browse Skills flow awaits it as the answer to its search.',
  skill_marketplace_changed: 'Handled by src/vscode/skillMarketplace.ts: the Browse Skills flow awaits it after an install or removal.',
  skill_marketplace_error: 'Handled by src/vscode/skillMarketplace.ts: the Browse Skills flow shows it as an error message.',
  sandbox_status: 'The answer to get_sandbox_status: our core answers the sandbox commands with error{unsupported} and our UI sends none.',
  sandbox_prepare_progress:
    'The progress of prepare_sandbox: our core answers the sandbox commands with error{unsupported} and our UI sends none.',
  sandbox_ready: 'The end of prepare_sandbox: our core answers the sandbox commands with error{unsupported} and our UI sends none.',
  sandbox_error: 'The failure of prepare_sandbox: our core answers the sandbox commands with error{unsupported} and our UI sends none.',
} as const satisfies { readonly [K in EventType]?: string };
