/**
 * A parallel batch of the `subagent` tool (upstream's `run_parallel`, research A:186-194): every task is checked before
 * anything is emitted, children `<batch>-<i>` start in input order under a concurrency cap, and the parent reads their
 * outputs as blocks in input order.
 */
import { mapInOrder } from '../platform/mapInOrder';
import type { ChildGroup, ChildResult, ChildState, SubagentHost } from '../agents/subagentHost';
import { openBatchWorktrees, type WorktreeDeps } from './childWorktree';
import { childMaxDepth } from '../agents/childTools';
import { findAgent } from '../agents/discovery';
import type { AgentDefinition } from '../agents/types';

/** Beyond this a batch is refused outright; the configured `maxTasks` is only a soft cap. */
export const PARALLEL_HARD_MAX_TASKS = 256;

export interface ParallelTask {
  agent: AgentDefinition;
  task: string;
  model?: string;
}

export interface ParallelCall {
  host: SubagentHost;
  tasks: ParallelTask[];
  /** The call's `concurrency` argument: it can only lower the configured cap. */
  concurrency?: number;
  /** The call's explicit context; else each agent's default. */
  context?: 'fresh' | 'fork';
  toolCallId: string;
  /** The caller's depth (ToolContext.depth): the children run one deeper. */
  depth: number;
  /** The run the batch belongs to, when not the host's (a chain's parallel step). */
  parentRunId?: string;
  /** The batch's id, when the caller chose it (a chain step `<chain>-<i>`); else a new one. */
  runId?: string;
  /** `worktree: true`: every child gets its own worktree, all made before any child starts (the caller checked git). */
  worktree?: WorktreeDeps;
}

export interface BatchResult {
  ok: boolean;
  output: string;
  state: ChildState;
}

/**
 * The raw `tasks` argument as tasks, or the error text for the model: nothing has been emitted yet. An item's `count`
 * (unimplemented upstream) repeats it; the repeats count towards the hard limit.
 */
export function parseParallelTasks(raw: unknown, agents: readonly AgentDefinition[], defaultTask = ''): ParallelTask[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return "parallel requires a non-empty 'tasks' array";
  const total = raw.reduce((sum: number, item) => sum + repeatCount(item), 0);
  if (total > PARALLEL_HARD_MAX_TASKS) {
    return `parallel has ${total} tasks (absolute safety max ${PARALLEL_HARD_MAX_TASKS}); split into smaller batches`;
  }
  const tasks: ParallelTask[] = [];
  for (const [i, item] of raw.entries()) {
    const fields = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
    const name = typeof fields.agent === 'string' ? fields.agent : '';
    const agent = findAgent(agents, name);
    if (!agent) return `parallel task ${i}: unknown agent '${name}'`;
    const task: ParallelTask = { agent, task: typeof fields.task === 'string' ? fields.task : defaultTask };
    if (typeof fields.model === 'string' && fields.model) task.model = fields.model;
    for (let n = repeatCount(item); n > 0; n--) tasks.push({ ...task });
  }
  return tasks;
}

/** An item's `count` when it is a safe integer above 1; else 1. The total is checked before any task is made. */
function repeatCount(item: unknown): number {
  const count = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).count : undefined;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > 1 ? count : 1;
}

/** upstream's `min(max(arg or cfg, 1), cfg)`. */
export function batchConcurrency(requested: number | undefined, configured: number): number {
  return Math.min(Math.max(requested ?? configured, 1), configured);
}

export async function runParallel(call: ParallelCall): Promise<BatchResult> {
  const { host, tasks } = call;
  const { parallelMaxTasks } = host.settings;
  if (tasks.length > parallelMaxTasks) {
    host.info(`parallel batch has ${tasks.length} tasks (soft cap ${parallelMaxTasks}): queuing with the configured concurrency`);
  }
  const group = host.openGroup({
    runId: call.runId ?? host.allocateRunId(),
    mode: 'parallel',
    agents: tasks.map((t) => t.agent.name),
    task: `parallel (${tasks.length} tasks)`,
    toolCallId: call.toolCallId,
    ...(call.parentRunId !== undefined ? { parentRunId: call.parentRunId } : {}),
  });
  let state: ChildState = 'failed';
  let failure: string | undefined;
  try {
    const results = await runChildren(call, group);
    state = batchState(group, results);
    return { ok: results.every((r) => r.ok), output: parallelOutput(tasks, results), state };
  } catch (error) {
    // A worktree that could not be made (`worktree setup failed for task i: …`, before any child ran) or removed.
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof BatchSetupError) failure = message;
    return { ok: false, output: message, state: 'failed' };
  } finally {
    // The batch's subagent_start was emitted: whatever happened, its subagent_done follows.
    group.finish(state, failure);
  }
}

/** The batch's worktrees could not be made: no child ran, and the batch's subagent_done says why (as upstream's does). */
class BatchSetupError extends Error {}

/** The batch's children, under its concurrency cap, each in its worktree when asked (all made before the first starts). */
async function runChildren(call: ParallelCall, group: ChildGroup): Promise<ChildResult[]> {
  const { host, tasks } = call;
  const { parallelConcurrency, maxDepth } = host.settings;
  const childRunIds = tasks.map((_, i) => `${group.runId}-${i}`);
  const worktrees = call.worktree
    ? await openBatchWorktrees(call.worktree, childRunIds).catch((error: unknown) => {
        throw new BatchSetupError(error instanceof Error ? error.message : String(error));
      })
    : undefined;
  const ran = await mapInOrder(tasks, batchConcurrency(call.concurrency, parallelConcurrency), (task, i) =>
    host.runChild({
      agent: task.agent,
      task: task.task,
      ...(task.model !== undefined ? { model: task.model } : {}),
      context: call.context ?? task.agent.defaultContext,
      depth: call.depth + 1,
      maxDepth: childMaxDepth(maxDepth, task.agent),
      runId: childRunIds[i],
      parentRunId: group.runId,
      toolCallId: call.toolCallId,
      signal: group.signal,
      ...(worktrees ? { workspace: worktrees.workspaces[i] } : {}),
    }),
  );
  return worktrees ? worktrees.close(ran) : ran;
}

/** `=== Parallel Task {i+1} ({agent}) ===\n{output}` blocks in input order, blank-line separated, trimmed. */
export function parallelOutput(tasks: readonly ParallelTask[], results: readonly ChildResult[]): string {
  return results
    .map((result, i) => `=== Parallel Task ${i + 1} (${tasks[i].agent.name}) ===\n${result.output}`)
    .join('\n\n')
    .trim();
}

/** `cancelled` means the batch's own token fired (as upstream), whatever its children answered. */
function batchState(group: ChildGroup, results: readonly ChildResult[]): ChildState {
  if (group.signal.aborted) return 'cancelled';
  return results.every((r) => r.ok) ? 'completed' : 'failed';
}
