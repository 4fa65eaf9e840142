/**
 * Upstream's deferred tools (core/src/tooling/schema.rs) and the load_tools groups that name several at once, as data:
 * load_tools resolves names against them, and tells the model which upstream tools this core does not have.
 */

/** Every deferred tool upstream has; this core builds in only some of them (see the registry). */
export const UPSTREAM_DEFERRED_TOOLS: readonly string[] = [
  'bulk',
  'bulk_read',
  'bulk_write',
  'bulk_edit',
  'goal_write_plan',
  'diagnostics',
  'fetch',
  'web_search',
  'git_status',
  'git_diff',
  'git_log',
  'workspace_activity',
  'git_add',
  'git_commit',
  'spawn',
  'test_env',
  'browser_create',
  'browser_close',
  'browser_list_sessions',
  'browser_navigate',
  'browser_back',
  'browser_reload',
  'browser_snapshot',
  'browser_find',
  'browser_click',
  'browser_fill',
  'browser_type',
  'browser_press',
  'browser_scroll',
  'browser_wait',
  'browser_evaluate',
  'browser_screenshot',
  'browser_show',
  'browser_hide',
];

/** `all` is every loadable deferred tool; goal_write_plan is never loadable (goal planning offers it). */
export const LOAD_TOOLS_GROUPS: Readonly<Record<string, readonly string[]>> = {
  all: UPSTREAM_DEFERRED_TOOLS.filter((name) => name !== 'goal_write_plan'),
  git: ['git_status', 'git_diff', 'git_log', 'git_add', 'git_commit'],
  web: ['fetch', 'web_search'],
  bulk: ['bulk', 'bulk_read', 'bulk_write', 'bulk_edit'],
  browser: UPSTREAM_DEFERRED_TOOLS.filter((name) => name.startsWith('browser_')),
};

export function loadToolsGroup(entry: string): readonly string[] | undefined {
  return Object.hasOwn(LOAD_TOOLS_GROUPS, entry) ? LOAD_TOOLS_GROUPS[entry] : undefined;
}
