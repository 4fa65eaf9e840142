/**
 * Upstream's read-only tools (research §4.3) that this core does not build in, for the kind of a tool that arrives
 * by name only (e.g. a plugin's). A built-in declares its kind in its own file; registry.test checks it against upstream.
 */
export const UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN: ReadonlySet<string> = new Set([
  'knowledge',
  'collections',
  'goal_write_plan',
  'browser_list_sessions',
  'browser_snapshot',
  'browser_find',
  'browser_screenshot',
]);
