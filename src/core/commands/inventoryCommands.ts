import type { CoreRuntime } from '../coreRuntime';

/*
 * Queries that ask what exists, which upstream's web UI sends on every session. This core has no plugins, no vision
 * handoff and no goal mode, so each answers with the true, empty state in upstream's shape: an error here would tell
 * the client that asking failed (upstream's web UI shows a red toast, and can drop the user's pending message).
 */

/** `list_plugins`: upstream answers `plugins_list`, then `plugin_commands`. */
export function handleListPlugins(rt: CoreRuntime): void {
  rt.emit({ type: 'plugins_list', plugins: [] });
  handleListPluginCommands(rt);
}

/** `list_plugin_commands` (the TUI sends it after `ready`). */
export function handleListPluginCommands(rt: CoreRuntime): void {
  rt.emit({ type: 'plugin_commands', commands: [] });
}

/** `get_vision_config`: no vision model is configured; `models` says which models take images themselves. */
export function handleGetVisionConfig(rt: CoreRuntime): void {
  const models = rt.providers.models().map((m) => ({ id: m.id, vision: m.vision === true, provider: m.provider ?? rt.providers.active }));
  rt.emit({ type: 'vision_config', enabled: false, vision_model: null, vision_models: [], models });
}

/** `goal_status`: upstream's idle goal (its defaults); no `goal_plan` follows, as upstream sends none without a plan. */
export function handleGoalStatus(rt: CoreRuntime): void {
  rt.emit({
    type: 'goal_state',
    id: '',
    version: 0,
    goal: '',
    phase: 'idle',
    prompts: [],
    auto_deploy: true,
    concurrency: 4,
    max_tasks: 8,
    allowed_models: [],
    allowed_providers: [],
    active_run_ids: [],
    parent_model: '',
    error: null,
    role_models: { planner: null, worker: null, reviewer: null },
    model_concurrency: {},
  });
}
