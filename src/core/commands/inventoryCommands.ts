import type { CoreRuntime } from '../coreRuntime';

/*
 * Queries that ask what exists, which upstream's web UI sends on every session. This core has no vision handoff, so it
 * answers with the true, empty state in upstream's shape: an error here would tell the client that asking failed
 * (upstream's web UI shows a red toast, and can drop the user's pending message). The plugin queries are in
 * pluginCommands.ts.
 */

/** `get_vision_config`: no vision model is configured; `models` says which models take images themselves. */
export function handleGetVisionConfig(rt: CoreRuntime): void {
  const models = rt.providers.models().map((m) => ({ id: m.id, vision: m.vision === true, provider: m.provider ?? rt.providers.active }));
  rt.emit({ type: 'vision_config', enabled: false, vision_model: null, vision_models: [], models });
}
