/**
 * What the tool gate asks of the plugins, declared here by the loop that uses it: the plugins (plugins/corePlugins.ts)
 * implement it structurally, so the loop knows no feature.
 */
import type { ToolDefinition, ToolOutcome } from '../tools/types';

export interface GatePlugins {
  /** A plugin tool by name; for a built-in's name, a plugin tool that overrides it (`override: true`). */
  tool(name: string): ToolDefinition | undefined;
  /** Whether any enabled plugin hooks this tool's calls before or after they run. */
  hooks(tool: string): boolean;
  pre(tool: string, args: Record<string, unknown>): Promise<PreHooksResult>;
  post(tool: string, args: Record<string, unknown>, outcome: ToolOutcome, notes: string[]): Promise<ToolOutcome>;
}

/** What the pre hooks of one call decided. */
export interface PreHooksResult {
  /** The tool result text of a deny: the call must not run. */
  denied?: string;
  /** The arguments as the hooks left them. */
  args: Record<string, unknown>;
  /** `<plugin>/<hook>` of each hook whose `modify` changed an argument. */
  rewrittenBy: string[];
  notes: string[];
}
