/** load_tools: enables deferred tools (by name or group) for the rest of the session, as upstream's does. */
import { LOAD_TOOLS_GROUPS } from './deferredGroups';
import type { LoadResult } from './loadedTools';
import { failed, guarded, succeeded, ToolInputError } from './outcome';
import { noTargets } from './toolTargets';
import type { ToolDefinition, ToolOutcome } from './types';

const GROUPS = Object.keys(LOAD_TOOLS_GROUPS).join(', ');

export const loadToolsTool: ToolDefinition = {
  name: 'load_tools',
  kind: 'readonly',
  schema: {
    name: 'load_tools',
    description:
      'Enable deferred tools for this session (their schemas are not sent until loaded). Pass tools:[...] or ' +
      `tool:"name". Groups: ${GROUPS}. Deferred: bulk*, git_*, diagnostics, workspace_activity, fetch, web_search ` +
      "(offered while a search key is set), spawn (and upstream's test_env, browser_*, which this core does not have).",
    parameters: {
      type: 'object',
      properties: {
        tools: { type: 'array', items: { type: 'string' }, description: `tool names or groups (${GROUPS.replaceAll(', ', '|')})` },
        tool: { type: 'string', description: 'single tool name or group' },
      },
    },
  },
  targets: noTargets,
  execute: guarded('load_tools', async (args, ctx) => {
    const entries = requestedEntries(args);
    const available = ctx.loadedTools.available.join(', ');
    if (entries.length === 0) {
      return succeeded(`No tools requested. Deferred tools: ${available}. Groups: ${GROUPS}. Core tools are already available.`);
    }
    return outcomeOf(ctx.loadedTools.load(entries), available);
  }),
};

function requestedEntries(args: Record<string, unknown>): string[] {
  const { tools, tool } = args;
  if (tools !== undefined && tools !== null && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string'))) {
    throw new ToolInputError("'tools' must be an array of tool names or groups");
  }
  if (tool !== undefined && tool !== null && typeof tool !== 'string') throw new ToolInputError("'tool' must be a string");
  return [...((tools as string[] | undefined) ?? []), ...(typeof tool === 'string' ? [tool] : [])]
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function outcomeOf(result: LoadResult, available: string): ToolOutcome {
  const lines = [
    listLine('Enabled', result.enabled),
    listLine('Already enabled', result.alreadyEnabled),
    listLine('Always available, no loading needed', result.alwaysOffered),
    listLine('Not in this core (skipped)', result.notInThisCore),
  ].filter((line): line is string => line !== undefined);
  if (result.unknown.length > 0) {
    lines.push(`Unknown tools: ${result.unknown.join(', ')}. Valid names: ${available}; groups: ${GROUPS}.`);
    return failed(lines.join('\n'));
  }
  if (result.enabled.length + result.alreadyEnabled.length === 0) lines.push('Nothing to enable.');
  else lines.push('These tools are available on subsequent model rounds this session.');
  return succeeded(lines.join('\n'));
}

function listLine(label: string, names: string[]): string | undefined {
  return names.length > 0 ? `${label}: ${names.join(', ')}` : undefined;
}
