/**
 * The `subagent` tool's create, update and delete actions (research A:225-227). Unlike upstream, which writes the
 * file directly, each change is the call's inner write_file or delete of `<ws>/.catalyst-code/agents/<name>.md`, so it is
 * approved, reviewed and checkpointed like any edit. User-scope files lie outside the workspace: this core refuses them.
 */
import { join, relative, sep } from 'node:path';
import type { ToolOutcome } from '../tools/types';
import { commaList } from '../platform/frontmatter';
import { normalizeToolName, renderAgentFile } from '../agents/agentFile';
import { findAgent } from '../agents/discovery';
import type { ActionAnswer, AgentDefinition } from '../agents/types';

type Args = Record<string, unknown>;

export interface AgentFileDeps {
  /** The calling agent's workspace. */
  workspace: string;
  /** The subagent call's inner-call runner (ctx.runInner). */
  runInner?(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
}

const PROJECT_AGENTS_DIR = join('.catalyst-code', 'agents');
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const USER_SCOPE_REFUSED =
  'this core changes project agents only (<workspace>/.catalyst-code/agents); edit user agents in ~/.catalyst-code/agents yourself';

export async function createAgent(args: Args, agents: readonly AgentDefinition[], deps: AgentFileDeps): Promise<ActionAnswer> {
  const config = configOf(args);
  const name = str(config.name);
  if (!name) return refused('create requires config.name');
  if (!AGENT_NAME.test(name)) return refused(`agent name '${name}' may use only letters, digits, '_', '-' and '.'`);
  if (str(config.scope) && str(config.scope) !== 'project') return refused(USER_SCOPE_REFUSED);
  const existing = agents.find((a) => a.name === name && a.source === 'project');
  if (existing) return refused(`agent '${name}' already exists at ${existing.path}; use action:"update"`);
  const agent = withConfig(blankAgent(name), config);
  const path = join(PROJECT_AGENTS_DIR, `${name}.md`);
  return answer(
    await inner(deps, 'write_file', { path: slashes(path), content: renderAgentFile(agent) }),
    `created agent '${name}' at ${slashes(path)}`,
  );
}

export async function updateAgent(args: Args, agents: readonly AgentDefinition[], deps: AgentFileDeps): Promise<ActionAnswer> {
  const name = str(args.agent);
  const agent = findAgent(agents, name);
  if (!agent || agent.source === 'builtin' || !agent.path) return refused(`agent '${name}' not found to update; create it first`);
  const path = projectPath(agent, deps);
  if (!path) return refused(USER_SCOPE_REFUSED);
  const updated = withConfig(agent, configOf(args));
  return answer(await inner(deps, 'write_file', { path, content: renderAgentFile(updated) }), `updated agent '${agent.name}' at ${path}`);
}

export async function deleteAgent(args: Args, agents: readonly AgentDefinition[], deps: AgentFileDeps): Promise<ActionAnswer> {
  const name = str(args.agent);
  const agent = findAgent(agents, name);
  if (!agent || agent.source === 'builtin' || !agent.path) {
    return refused(`agent '${name}' not found (builtins cannot be deleted; override with disabled:true)`);
  }
  const path = projectPath(agent, deps);
  if (!path) return refused(USER_SCOPE_REFUSED);
  return answer(await inner(deps, 'delete', { path }), `deleted agent '${agent.name}' (${path})`);
}

function configOf(args: Args): Args {
  const config = args.config;
  return typeof config === 'object' && config !== null && !Array.isArray(config) ? (config as Args) : {};
}

function str(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function refused(output: string): ActionAnswer {
  return { ok: false, output };
}

function blankAgent(name: string): AgentDefinition {
  return {
    name,
    description: '',
    tools: [],
    fallbackModels: [],
    thinking: 'medium',
    systemPromptMode: 'replace',
    inheritProjectContext: false,
    defaultContext: 'fresh',
    skills: [],
    defaultReads: [],
    disabled: false,
    source: 'project',
    prompt: '',
  };
}

/** The keys upstream's create and update take: description, tools (a comma string), model, thinking, systemPrompt, systemPromptMode. */
function withConfig(agent: AgentDefinition, config: Args): AgentDefinition {
  const next = { ...agent };
  if (typeof config.description === 'string') next.description = singleLine(config.description);
  if (typeof config.tools === 'string') next.tools = commaList(singleLine(config.tools)).map(normalizeToolName);
  if (typeof config.model === 'string') next.model = singleLine(config.model) || undefined;
  if (typeof config.thinking === 'string' && config.thinking.trim()) next.thinking = singleLine(config.thinking);
  if (typeof config.systemPrompt === 'string') next.prompt = config.systemPrompt.trim();
  if (config.systemPromptMode === 'append' || config.systemPromptMode === 'replace') next.systemPromptMode = config.systemPromptMode;
  if (next.model === undefined) delete next.model;
  return next;
}

/** A frontmatter value is one line: a newline would smuggle in another key (say `tools: bash`). */
function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/** The file's workspace-relative path when it is a project agent of this workspace. */
function projectPath(agent: AgentDefinition, deps: AgentFileDeps): string | undefined {
  if (agent.source !== 'project' || !agent.path) return undefined;
  const rel = relative(deps.workspace, agent.path);
  return rel.startsWith(`..${sep}`) || rel.startsWith(sep) || rel === '..' ? undefined : slashes(rel);
}

function slashes(path: string): string {
  return path.split(sep).join('/');
}

async function inner(deps: AgentFileDeps, name: string, args: Record<string, unknown>): Promise<ToolOutcome | string> {
  if (!deps.runInner) return 'this call cannot change files';
  return deps.runInner(name, args);
}

function answer(outcome: ToolOutcome | string, done: string): ActionAnswer {
  if (typeof outcome === 'string') return { ok: false, output: outcome };
  return outcome.ok ? { ok: true, output: done } : { ok: false, output: outcome.output };
}
