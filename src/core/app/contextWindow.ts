import type { CoreRuntime } from './coreRuntime';

/** The window assumed when neither the last turn's model nor the active provider says. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The session's context window in tokens: the last turn's model's, else the active provider's, else the default. */
export function contextWindow(rt: CoreRuntime): number {
  return (
    (rt.lastModel && rt.providers.modelInfo(rt.lastModel)?.context_window) ||
    rt.providers.activeConfig?.contextWindow ||
    DEFAULT_CONTEXT_WINDOW
  );
}
