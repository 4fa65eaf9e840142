/**
 * The lookup of this core's built-in tools by name, over the list the composition root hands it (app/allTools.ts): a
 * tool can live with its feature, and nothing here knows which tools there are.
 */
import { LoadedTools } from './loadedTools';
import type { ToolDefinition, ToolKind } from './types';
import { UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN } from './upstreamReadonlyTools';

export interface ToolRegistry {
  /** Every built-in tool, in the order the model is offered them. */
  readonly all: readonly ToolDefinition[];
  get(name: string): ToolDefinition | undefined;
  /** The kind of any tool name: a built-in's own declaration, else upstream's; unknown and plugin tools are destructive. */
  kind(name: string): ToolKind;
  /**
   * The tools the main agent is offered now: every one that is not deferred, child-only or turn-only, and the deferred
   * ones the session loaded, but those `withheld` now (the web tools while they are off, web_search while no search key is set).
   */
  offered(loaded: Pick<LoadedTools, 'has'>, withheld?: ReadonlySet<string>): ToolDefinition[];
  /** A session's empty set of loaded deferred tools, over these tools but the `absent` ones (the web tools turned off). */
  newLoadedTools(absent?: readonly string[]): LoadedTools;
}

const NO_TOOLS: ReadonlySet<string> = new Set();

export function toolRegistry(all: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map(all.map((tool) => [tool.name, tool]));
  /** The tools a session may be offered or load: a turn-only tool is offered by its turn alone. */
  const listed = all.filter((tool) => !tool.turnOnly);
  const get = (name: string) => byName.get(name);
  return {
    all,
    get,
    kind: (name) => get(name)?.kind ?? (UPSTREAM_READONLY_TOOLS_NOT_BUILT_IN.has(name) ? 'readonly' : 'destructive'),
    offered: (loaded, withheld = NO_TOOLS) =>
      listed.filter((tool) => tool.audience !== 'child' && (!tool.deferred || loaded.has(tool.name)) && !withheld.has(tool.name)),
    newLoadedTools: (absent = []) => {
      const names = (deferred: boolean) =>
        listed.filter((tool) => !!tool.deferred === deferred && !absent.includes(tool.name)).map((tool) => tool.name);
      return new LoadedTools(names(true), names(false));
    },
  };
}
