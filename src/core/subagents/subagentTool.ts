/**
 * subagent: runs child agents (one, a parallel batch, or a chain) and answers the management actions (research
 * A:133-237). Destructive, like upstream's: the call itself is approved, and it never joins a read wave.
 */
import { childMaxDepth } from '../agents/childTools';
import { parseChainSteps, runChain } from './chainRun';
import { AGENT_SCOPES, agentsInScope, findAgent, type AgentScope } from '../agents/discovery';
import { parseParallelTasks, runParallel } from './parallelRun';
import { runAgentAction } from './subagentActions';
import type { AgentDefinition } from '../agents/types';
import type { ChildResult, SubagentHost } from '../agents/subagentHost';
import { runChildInWorktree, worktreeRefusal, type WorktreeDeps } from './childWorktree';
import { failed, succeeded } from '../tools/outcome';
import { noTargets } from '../tools/toolTargets';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../tools/types';

type Args = Record<string, unknown>;

export const SUBAGENT_REQUIRES = "subagent requires 'agent'+'task', 'tasks', 'chain', or 'action'";
export const ASYNC_UNSUPPORTED = 'async is not supported';

/** The depth guard's refusal: upstream words the main agent's call and a child's (nested) call differently. */
export function nestingBlocked(depth: number, max: number): string {
  if (depth > 0) return `nested subagent blocked at depth ${depth} (max ${max})`;
  return `subagent nesting blocked at depth ${depth} (max ${max}); complete the current task directly`;
}

export function unknownAgent(name: string): string {
  return `unknown agent '${name}'; use action:"list" to discover agents`;
}

const TASK_ITEM = {
  type: 'object',
  properties: {
    agent: { type: 'string' },
    task: { type: 'string' },
    model: { type: 'string' },
    count: { type: 'integer', description: 'Run this task this many times (default 1).' },
  },
};

export const subagentTool: ToolDefinition = {
  name: 'subagent',
  kind: 'destructive',
  startsChildren: true,
  schema: {
    name: 'subagent',
    description:
      'Delegate work to specialised child agents, each with its own conversation and tools. ' +
      'Single: {agent, task}. Parallel: {tasks:[{agent, task}], concurrency?}; the results come back as one block per task, in order. ' +
      'Chain: {chain:[{agent, task?, as?} | {parallel:[{agent, task}], as?}]}; a step task may use {previous}, {outputs.<as>} and {chain_dir}, and defaults to {previous}. ' +
      'context "fork" gives a child the recent conversation; "fresh" only its task. ' +
      'Actions: list, get {agent}, models, status {id?}, peek {id}, interrupt {id}, steer {id, message}, doctor; ' +
      'create {config:{name, description, tools, systemPrompt, model, thinking}}, update {agent, config}, delete {agent} change project agents. ' +
      'A child cannot see this conversation unless forked: give it a self-contained task.',
    parameters: {
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: ['list', 'get', 'models', 'create', 'update', 'delete', 'status', 'interrupt', 'resume', 'peek', 'steer', 'doctor'],
          description: 'A management action instead of a run.',
        },
        agent: { type: 'string', description: 'The agent to run (single mode), or the agent an action is about.' },
        task: { type: 'string', description: 'The task for the agent, self-contained.' },
        model: { type: 'string', description: "A model for the child instead of the agent's or this conversation's." },
        tasks: { type: 'array', description: 'Parallel mode: the tasks, {agent, task, model?}.', items: TASK_ITEM },
        chain: {
          type: 'array',
          description: 'Chain mode: the steps, {agent, task?, model?, as?} or {parallel:[tasks], concurrency?, as?}.',
          items: {
            type: 'object',
            properties: {
              agent: { type: 'string' },
              task: { type: 'string' },
              model: { type: 'string' },
              as: { type: 'string' },
              parallel: { type: 'array', items: TASK_ITEM },
              concurrency: { type: 'integer' },
            },
          },
        },
        concurrency: { type: 'integer', description: 'At most this many parallel children at once (the configured cap still applies).' },
        worktree: { type: 'boolean', description: 'Run each child in its own git worktree.' },
        context: {
          type: 'string',
          enum: ['fresh', 'fork'],
          description: 'fork: the child sees the recent conversation; fresh: only its task.',
        },
        async: { type: 'boolean', description: 'Not supported: every run finishes before this call returns.' },
        id: { type: 'string', description: 'The run an action is about.' },
        message: { type: 'string', description: 'The message of a steer or resume action.' },
        config: { type: 'object', description: 'The agent definition of a create or update action.' },
        agentScope: {
          type: 'string',
          enum: ['user', 'project', 'both'],
          description: "Which agent files the call may pick: the user's, the workspace's, or both (default; the builtins always).",
        },
      },
    },
  },
  targets: noTargets,
  execute: runSubagentCall,
};

async function runSubagentCall(args: Args, ctx: ToolContext): Promise<ToolOutcome> {
  const host = ctx.subagents;
  if (!host) return failed('subagent is not available here');
  const { maxDepth } = host.settings;
  if (ctx.depth >= maxDepth) return failed(nestingBlocked(ctx.depth, maxDepth));
  const scope = agentScopeArgument(args.agentScope);
  if (!scope) return failed(`agentScope must be one of ${AGENT_SCOPES.join(', ')}`);
  const agents = agentsInScope(host.agents(), scope);
  const call: Call = { host, agents, args, depth: ctx.depth, toolCallId: ctx.callId ?? '', ctx };
  if (args.agent === undefined && args.tasks === undefined && args.chain === undefined && typeof args.prompt === 'string') {
    return runDelegatePrompt(call, args.prompt);
  }
  if (typeof args.action === 'string') {
    const answer = await runAgentAction(args.action, args, agents, host, {
      workspace: ctx.workspace,
      ...(ctx.runInner ? { runInner: ctx.runInner } : {}),
    });
    return answer.ok ? succeeded(answer.output) : failed(answer.output);
  }
  const isRun = typeof args.agent === 'string' || Array.isArray(args.tasks) || Array.isArray(args.chain);
  if (isRun && args.async === true) return failed(ASYNC_UNSUPPORTED);
  if (typeof args.agent === 'string') return runSingle(call, args.agent);
  if (Array.isArray(args.tasks)) return runBatch(call);
  if (Array.isArray(args.chain)) return runChainCall(call);
  return failed(SUBAGENT_REQUIRES);
}

function agentScopeArgument(value: unknown): AgentScope | undefined {
  if (value === undefined || value === null) return 'both';
  return AGENT_SCOPES.find((scope) => scope === value);
}

interface Call {
  host: SubagentHost;
  agents: AgentDefinition[];
  args: Args;
  depth: number;
  toolCallId: string;
  ctx: ToolContext;
}

/** `worktree: true` (single and parallel; chains never use worktrees): the worktree deps, or the refusal outside git. */
async function worktreeDeps(call: Call): Promise<WorktreeDeps | string | undefined> {
  if (call.args.worktree !== true) return undefined;
  const refusal = await worktreeRefusal(call.ctx.workspace);
  if (refusal) return refusal;
  const { host, ctx } = call;
  return {
    workspace: ctx.workspace,
    emit: (event) => host.emitWorktree(event),
    info: (message) => host.info(message),
    ...(ctx.runInner ? { runInner: ctx.runInner } : {}),
    signal: ctx.signal,
  };
}

function explicitContext(args: Args): 'fresh' | 'fork' | undefined {
  return args.context === 'fork' || args.context === 'fresh' ? args.context : undefined;
}

function modelArgument(args: Args): { model?: string } {
  return typeof args.model === 'string' && args.model ? { model: args.model } : {};
}

async function runSingle(call: Call, name: string): Promise<ToolOutcome> {
  const agent = findAgent(call.agents, name);
  if (!agent) return failed(unknownAgent(name));
  const task = typeof call.args.task === 'string' ? call.args.task : '';
  const worktree = await worktreeDeps(call);
  if (typeof worktree === 'string') return failed(worktree);
  return runOneChild(call, agent, task, explicitContext(call.args) ?? agent.defaultContext, worktree);
}

/** Upstream's legacy form (and its deferred `spawn`): a bare `{prompt, model?}` runs `delegate`, fresh. */
async function runDelegatePrompt(call: Call, prompt: string): Promise<ToolOutcome> {
  const agent = findAgent(call.agents, 'delegate');
  if (!agent) return failed(unknownAgent('delegate'));
  return runOneChild(call, agent, prompt, 'fresh');
}

async function runOneChild(
  call: Call,
  agent: AgentDefinition,
  task: string,
  context: 'fresh' | 'fork',
  worktree?: WorktreeDeps,
): Promise<ToolOutcome> {
  const { host } = call;
  const runId = host.allocateRunId();
  const run = (workspace?: string): Promise<ChildResult> =>
    host.runChild({
      agent,
      task,
      ...modelArgument(call.args),
      context,
      depth: call.depth + 1,
      maxDepth: childMaxDepth(host.settings.maxDepth, agent),
      runId,
      parentRunId: host.runId,
      toolCallId: call.toolCallId,
      ...(workspace !== undefined ? { workspace } : {}),
    });
  const result = worktree ? await runChildInWorktree(worktree, runId, run) : await run();
  if (result.ok) return succeeded(result.output);
  return failed(result.output, result.state === 'cancelled' ? 'cancelled' : 'failed');
}

async function runBatch(call: Call): Promise<ToolOutcome> {
  const tasks = parseParallelTasks(call.args.tasks, call.agents);
  if (typeof tasks === 'string') return failed(tasks);
  const worktree = await worktreeDeps(call);
  if (typeof worktree === 'string') return failed(worktree);
  const concurrency = typeof call.args.concurrency === 'number' ? { concurrency: call.args.concurrency } : {};
  const context = explicitContext(call.args);
  const batch = await runParallel({
    host: call.host,
    tasks,
    ...concurrency,
    ...(context ? { context } : {}),
    toolCallId: call.toolCallId,
    depth: call.depth,
    ...(worktree ? { worktree } : {}),
  });
  if (batch.ok) return succeeded(batch.output);
  return failed(batch.output, batch.state === 'cancelled' ? 'cancelled' : 'failed');
}

async function runChainCall(call: Call): Promise<ToolOutcome> {
  const steps = parseChainSteps(call.args.chain, call.agents);
  if (typeof steps === 'string') return failed(steps);
  const context = explicitContext(call.args);
  const result = await runChain(
    { host: call.host, ...(context ? { context } : {}), toolCallId: call.toolCallId, depth: call.depth },
    steps,
  );
  return result.ok ? succeeded(result.output) : failed(result.output);
}
