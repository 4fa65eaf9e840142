/**
 * Which agents a session can run: the builtins, then `~/.catalyst-code/agents/**\/*.md` (user), then
 * `<ws>/.catalyst-code/agents/**\/*.md` (project); a later one replaces an earlier one of the same name (research A:46-60).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentInfo } from '../../protocol';
import type { AgentOverride, SubagentSettings } from '../config/coreConfig';
import { getOwn } from '../platform/jsonValue';
import { NO_SKIPPED_DIRS, walkTree } from '../platform/treeWalk';
import { parseAgentFile, renderAgentFile } from './agentFile';
import { builtinAgents } from './builtinAgents';
import type { AgentDefinition, AgentSource } from './types';

export interface AgentDirs {
  /** ~/.catalyst-code/agents */
  user: string;
  /** <ws>/.catalyst-code/agents */
  project: string;
}

export function agentDirs(homeDir: string, workspace: string): AgentDirs {
  return { user: userAgentsDir(homeDir), project: join(workspace, '.catalyst-code', 'agents') };
}

export function userAgentsDir(homeDir: string): string {
  return join(homeDir, '.catalyst-code', 'agents');
}

/**
 * Sorted by name. Unlike upstream, a file with `disabled: true` hides the agent of its name from the lower scopes too
 * (upstream only skips that file, though its own error text suggests disabling as the way to remove a builtin).
 */
export function discoverAgents(dirs: AgentDirs, settings: BuiltinSettings = {}): AgentDefinition[] {
  const builtins = new Map(builtinAgents().map((agent) => [agent.name, agent]));
  const byName = new Map<string, AgentDefinition>();
  /** A builtin, or the user's unedited staged copy of one: the builtin settings apply to both. */
  const place = (agent: AgentDefinition, builtin: boolean) => {
    const shaped = builtin ? withOverride(agent, getOwn(settings.agentOverrides ?? {}, agent.name)) : agent;
    if (shaped.disabled || (builtin && settings.disableBuiltins)) return byName.delete(agent.name);
    const replaced = byName.get(agent.name);
    if (replaced) shadowed.set(shaped, replaced);
    byName.set(agent.name, shaped);
  };
  for (const agent of builtins.values()) place(agent, true);
  for (const [dir, source] of [
    [dirs.user, 'user'],
    [dirs.project, 'project'],
  ] as const) {
    for (const agent of agentsIn(dir, source)) place(agent, source === 'user' && isStagedCopy(agent, builtins.get(agent.name)));
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The agent of the same name each discovered agent replaced, from a lower scope (agentsInScope walks down to it). */
const shadowed = new WeakMap<AgentDefinition, AgentDefinition>();

/** The subagent tool's `agentScope`: which agent files a call may pick (the builtins are always there). */
export type AgentScope = 'user' | 'project' | 'both';

export const AGENT_SCOPES: readonly AgentScope[] = ['user', 'project', 'both'];

/**
 * The agents a call with this `agentScope` may pick: `user` leaves out the workspace's files, `project` the user's, so
 * an agent of the left-out scope gives way to the one it replaced (a user file, or the builtin). Upstream accepts the
 * argument and ignores it. A file that disables an agent hides it in every scope.
 */
export function agentsInScope(agents: readonly AgentDefinition[], scope: AgentScope): AgentDefinition[] {
  if (scope === 'both') return [...agents];
  const excluded: AgentSource = scope === 'user' ? 'project' : 'user';
  const inScope: AgentDefinition[] = [];
  for (const agent of agents) {
    let candidate: AgentDefinition | undefined = agent;
    while (candidate && candidate.source === excluded) candidate = shadowed.get(candidate);
    if (candidate) inScope.push(candidate);
  }
  return inScope;
}

/**
 * Staging (staging.ts) puts every builtin into the user scope, so without this the settings meant for the builtins
 * would never apply (upstream's own staging has that effect). A file the user edited is their own agent.
 */
function isStagedCopy(agent: AgentDefinition, builtin: AgentDefinition | undefined): boolean {
  return builtin !== undefined && renderAgentFile(agent) === renderAgentFile(builtin);
}

/** The settings that shape the builtins (`subagents.disableBuiltins`, `subagents.agentOverrides`). */
export type BuiltinSettings = Partial<Pick<SubagentSettings, 'disableBuiltins' | 'agentOverrides'>>;

/** A builtin with its settings override: model, fallbacks (when non-empty), thinking, disabled (upstream's `apply_overrides`). */
function withOverride(agent: AgentDefinition, override: AgentOverride | undefined): AgentDefinition {
  if (!override) return agent;
  const next = { ...agent };
  if (override.model) next.model = override.model;
  if (override.fallbackModels?.length) next.fallbackModels = [...override.fallbackModels];
  if (override.thinking) next.thinking = override.thinking;
  if (override.disabled) next.disabled = true;
  return next;
}

/** The exact name, else its last `.`-segment (`pkg.scout` finds scout), as upstream's `find_agent`. */
export function findAgent(agents: readonly AgentDefinition[], name: string): AgentDefinition | undefined {
  const bare = name.slice(name.lastIndexOf('.') + 1);
  return agents.find((agent) => agent.name === name) ?? agents.find((agent) => agent.name === bare);
}

/** The `agents` event's entries. */
export function agentInfos(agents: readonly AgentDefinition[]): AgentInfo[] {
  return agents.map((agent) => ({ name: agent.name, description: agent.description, source: agent.source }));
}

/** Directory symlinks could loop; a real agent tree is shallow. */
const MAX_DIR_DEPTH = 8;
/** An agent file is a prompt: anything larger is not one. */
const MAX_AGENT_FILE_BYTES = 256 * 1024;

/** Files in path order, so two files of one name in one scope resolve the same way every time (upstream's order is unspecified). */
function agentsIn(dir: string, source: AgentSource): AgentDefinition[] {
  const agents: AgentDefinition[] = [];
  for (const path of markdownFiles(dir)) {
    const content = readSmallFile(path);
    const agent = content === undefined ? undefined : parseAgentFile(content, source, path);
    if (agent) agents.push(agent);
  }
  return agents;
}

/** The .md files under `dir`, in path order, through symlinked folders (at most MAX_DIR_DEPTH deep, which ends a loop). */
function markdownFiles(dir: string): string[] {
  const walk = walkTree(dir, '', {
    skipDirNames: NO_SKIPPED_DIRS,
    order: 'path',
    followDirSymlinks: true,
    includeSymlinks: true,
    maxDepth: MAX_DIR_DEPTH,
  });
  return walk.files.filter((rel) => rel.endsWith('.md')).map((rel) => join(dir, rel));
}

/** Unreadable, oversized and non-file entries are skipped silently, as upstream skips unreadable ones. */
function readSmallFile(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_AGENT_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
