/** The `subagent` tool's management actions (upstream's `handle_action`, research A:216-237): text for the model. */
import type { SubagentHost, SubagentRunInfo } from '../agents/subagentHost';
import type { ActionAnswer, AgentDefinition } from '../agents/types';
import { createAgent, deleteAgent, updateAgent, type AgentFileDeps } from './agentFileActions';
import { findAgent } from '../agents/discovery';
import { PARALLEL_HARD_MAX_TASKS } from './parallelRun';

type Args = Record<string, unknown>;
/** What the run actions need of the host bound to the calling run. */
export type RunActions = Pick<SubagentHost, 'runId' | 'depth' | 'runs' | 'interrupt' | 'steer' | 'settings'>;

const KNOWN_ACTIONS = ['list', 'get', 'create', 'update', 'delete', 'status', 'interrupt', 'resume', 'peek', 'steer', 'doctor'];

export async function runAgentAction(
  action: string,
  args: Args,
  agents: readonly AgentDefinition[],
  host: RunActions,
  files: AgentFileDeps,
): Promise<ActionAnswer> {
  switch (action) {
    case 'create':
      return createAgent(args, agents, files);
    case 'update':
      return updateAgent(args, agents, files);
    case 'delete':
      return deleteAgent(args, agents, files);
    case 'list':
      return { ok: true, output: listAgents(agents) };
    case 'get':
      return getAgent(args, agents);
    case 'status':
      return { ok: true, output: runStatus(visibleRuns(host), text(args.id)) };
    case 'interrupt':
      return interrupt(host, text(args.id));
    case 'steer':
      return steer(host, text(args.id), text(args.message));
    case 'resume':
      return resume(host, text(args.id), text(args.message));
    case 'peek':
      return peek(host, text(args.id));
    case 'models':
      return models(args, agents);
    case 'doctor':
      return { ok: true, output: doctor(agents, host) };
  }
  return { ok: false, output: `unknown action '${action}'; use ${KNOWN_ACTIONS.join('|')}` };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** `{n} agent(s):` then `- {name} [{source}] — {description}` per agent. */
export function listAgents(agents: readonly AgentDefinition[]): string {
  return [`${agents.length} agent(s):`, ...agents.map((a) => `- ${a.name} [${a.source}] — ${a.description}`)].join('\n');
}

function getAgent(args: Args, agents: readonly AgentDefinition[]): ActionAnswer {
  const name = text(args.agent);
  const agent = findAgent(agents, name);
  if (!agent) return { ok: false, output: `unknown agent '${name}'` };
  return { ok: true, output: JSON.stringify(agent, null, 2) };
}

/**
 * The runs the caller may see and act on: every run for the main agent; a child's own subtree only, so that a child
 * cannot interrupt or steer its siblings or its parents.
 */
function visibleRuns(host: RunActions): SubagentRunInfo[] {
  const runs = host.runs();
  if (host.depth === 0) return runs;
  const byId = new Map(runs.map((run) => [run.runId, run]));
  const below = (run: SubagentRunInfo): boolean => {
    // Bounded: the nesting depth is small, and a malformed parent loop must not hang the call.
    for (let id: string | undefined = run.parentRunId, hops = 0; id !== undefined && hops < 64; hops++) {
      if (id === host.runId) return true;
      id = byId.get(id)?.parentRunId;
    }
    return false;
  };
  return runs.filter(below);
}

/** Upstream's prefix match, either way round (`run-3` finds `run-3-0`, `run-3-0-extra` finds `run-3-0`). */
function matches(run: SubagentRunInfo, id: string): boolean {
  return run.runId.startsWith(id) || id.startsWith(run.runId);
}

/** One line per run, `[state] id (mode) — parent: p — agents — Ns — target: t`, or `no subagent runs`. */
export function runStatus(runs: readonly SubagentRunInfo[], id = '', now = Date.now()): string {
  const shown = id ? runs.filter((run) => matches(run, id)) : runs;
  if (shown.length === 0) return 'no subagent runs';
  return shown
    .map((run) => {
      const seconds = Math.round(((run.endedAt ?? now) - run.startedAt) / 1000);
      const agents = (run.agents.length > 0 ? run.agents : [run.agent]).join(', ');
      return `[${run.state}] ${run.runId} (${run.mode}) — parent: ${run.parentRunId} — ${agents} — ${seconds}s — target: ${run.target || '-'}`;
    })
    .join('\n');
}

/** An exact id of a run the caller may act on. */
function ownRun(host: RunActions, id: string): SubagentRunInfo | undefined {
  return visibleRuns(host).find((run) => run.runId === id);
}

function interrupt(host: RunActions, id: string): ActionAnswer {
  if (!id) return { ok: false, output: "interrupt requires 'id'" };
  if (!ownRun(host, id) || !host.interrupt(id)) return { ok: false, output: `run ${id} is no longer live` };
  return { ok: true, output: `interrupted run ${id}` };
}

function steer(host: RunActions, id: string, message: string): ActionAnswer {
  if (!id) return { ok: false, output: "steer requires 'id'" };
  if (!message) return { ok: false, output: "steer requires 'message'" };
  const run = ownRun(host, id);
  if (!run || !host.steer(id, message)) return { ok: false, output: `run ${id} is no longer live` };
  return { ok: true, output: `steer message delivered to ${id} (${run.target})` };
}

function resume(host: RunActions, id: string, message: string): ActionAnswer {
  if (!id) return { ok: false, output: "resume requires 'id'" };
  if (!message) return { ok: false, output: "resume requires 'message'" };
  const run = ownRun(host, id);
  // Upstream answers ok here: the model should start a new run, not retry.
  if (!run || !host.steer(id, message)) return { ok: true, output: `run ${id} is no longer live; start a new run to continue` };
  return { ok: true, output: `resume message delivered to ${run.target}` };
}

function peek(host: RunActions, id: string): ActionAnswer {
  if (!id) return { ok: false, output: "peek requires 'id'" };
  const run = visibleRuns(host).find((r) => matches(r, id));
  if (!run) return { ok: false, output: `no subagent run matches '${id}'` };
  const view = {
    id: run.runId,
    parent_run_id: run.parentRunId,
    state: run.state,
    mode: run.mode,
    agents: run.agents.length > 0 ? run.agents : [run.agent],
    started_at: run.startedAt,
    ended_at: run.endedAt ?? null,
    messages_count: run.messagesCount,
    estimated_tokens: run.estimatedTokens,
    last_turns: [...run.lastTurns].reverse(),
    last_tools: run.lastTools,
  };
  return { ok: true, output: JSON.stringify(view, null, 2) };
}

/** `- {name}: {model} (fallback: a, b)` per agent, or for the one named; an agent without a model runs on its caller's. */
function models(args: Args, agents: readonly AgentDefinition[]): ActionAnswer {
  const name = text(args.agent);
  const agent = name ? findAgent(agents, name) : undefined;
  if (name && !agent) return { ok: false, output: `unknown agent '${name}'` };
  const lines = (agent ? [agent] : agents).map((a) => {
    const fallback = a.fallbackModels.length > 0 ? ` (fallback: ${a.fallbackModels.join(', ')})` : '';
    return `- ${a.name}: ${a.model ?? "the caller's model"}${fallback}`;
  });
  return { ok: true, output: lines.join('\n') };
}

/** What this core knows of its subagent set-up: the agents, the limits, and the runs (live and recently ended). */
function doctor(agents: readonly AgentDefinition[], host: RunActions): string {
  const runs = visibleRuns(host);
  const live = runs.filter((run) => run.endedAt === undefined);
  const bySource = (source: string) => agents.filter((a) => a.source === source).length;
  const { maxDepth, parallelConcurrency, parallelMaxTasks } = host.settings;
  return [
    `agents: ${agents.length} (builtin ${bySource('builtin')}, user ${bySource('user')}, project ${bySource('project')})`,
    `depth: this caller ${host.depth}, max ${maxDepth}`,
    `parallel: concurrency ${parallelConcurrency}, soft cap ${parallelMaxTasks} tasks, hard cap ${PARALLEL_HARD_MAX_TASKS}`,
    `runs: ${live.length} live, ${runs.length - live.length} ended`,
    ...live.map((run) => `- ${run.runId} (${run.mode}) ${run.state}, target: ${run.target || '-'}`),
  ].join('\n');
}
