/**
 * A chain of the `subagent` tool (upstream's `run_chain`, research A:196-214): steps run one after another, each task a
 * template over the earlier outputs; a failure stops the chain, and the parent reads the last step's output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildGroup, ChildState, SubagentHost } from '../agents/subagentHost';
import { childMaxDepth } from '../agents/childTools';
import { findAgent } from '../agents/discovery';
import { parseParallelTasks, runParallel, type ParallelTask } from './parallelRun';
import type { AgentDefinition } from '../agents/types';

export type ChainStep =
  | { kind: 'single'; agent: AgentDefinition; task: string; model?: string; as?: string }
  | { kind: 'parallel'; tasks: ParallelTask[]; concurrency?: number; as?: string };

export interface ChainCall {
  host: SubagentHost;
  context?: 'fresh' | 'fork';
  toolCallId: string;
  /** The caller's depth (ToolContext.depth). */
  depth: number;
}

export interface ChainResult {
  ok: boolean;
  output: string;
}

export const CHAIN_ABORTED = '[chain aborted]';

/** The raw steps, or the error text for the model. Unlike upstream, every agent is checked before anything runs. */
export function parseChainSteps(raw: unknown, agents: readonly AgentDefinition[]): ChainStep[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return "chain requires a non-empty 'chain' array";
  const steps: ChainStep[] = [];
  for (const [i, item] of raw.entries()) {
    const fields = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
    const as = typeof fields.as === 'string' && fields.as ? { as: fields.as } : {};
    if (Array.isArray(fields.parallel)) {
      const tasks = parseParallelTasks(fields.parallel, agents, '{previous}');
      if (typeof tasks === 'string') return `chain step ${i} (parallel group) failed: ${tasks}`;
      const concurrency = typeof fields.concurrency === 'number' ? { concurrency: fields.concurrency } : {};
      steps.push({ kind: 'parallel', tasks, ...concurrency, ...as });
      continue;
    }
    const name = typeof fields.agent === 'string' ? fields.agent : '';
    const agent = findAgent(agents, name);
    if (!agent) return `chain step ${i}: unknown agent '${name}'`;
    const model = typeof fields.model === 'string' && fields.model ? { model: fields.model } : {};
    steps.push({ kind: 'single', agent, task: typeof fields.task === 'string' ? fields.task : '{previous}', ...model, ...as });
  }
  return steps;
}

export interface ChainValues {
  previous: string;
  outputs: ReadonlyMap<string, string>;
  chainDir: string;
}

/** `{previous}`, `{outputs.<as>}` (empty when unknown) and `{chain_dir}`, as upstream's `render_task`. */
export function renderChainTask(template: string, values: ChainValues): string {
  return template.replace(/\{(previous|chain_dir|outputs\.([^{}]*))\}/g, (_match, key: string, name: string | undefined) => {
    if (key === 'previous') return values.previous;
    if (key === 'chain_dir') return values.chainDir;
    return values.outputs.get(name ?? '') ?? '';
  });
}

export async function runChain(call: ChainCall, steps: ChainStep[]): Promise<ChainResult> {
  const { host } = call;
  const group = host.openGroup({
    runId: host.allocateRunId(),
    mode: 'chain',
    agents: steps.flatMap((step) => (step.kind === 'single' ? [step.agent.name] : step.tasks.map((t) => t.agent.name))),
    task: `chain (${steps.length} steps)`,
    toolCallId: call.toolCallId,
  });
  let state: ChildState = 'failed';
  let chainDir: string | undefined;
  try {
    chainDir = mkdtempSync(join(tmpdir(), `catalyst-code-subagent-chain-${group.runId}-`));
    const result = await runSteps(call, group, steps, chainDir);
    state = group.signal.aborted ? 'cancelled' : result.ok ? 'completed' : 'failed';
    return result;
  } finally {
    if (chainDir !== undefined) rmSync(chainDir, { recursive: true, force: true });
    // The chain's subagent_start was emitted: whatever happened, its subagent_done follows.
    group.finish(state);
  }
}

async function runSteps(call: ChainCall, group: ChildGroup, steps: ChainStep[], chainDir: string): Promise<ChainResult> {
  const values = { previous: '', outputs: new Map<string, string>(), chainDir };
  for (const [i, step] of steps.entries()) {
    if (group.signal.aborted) return { ok: false, output: CHAIN_ABORTED };
    const result =
      step.kind === 'single' ? await runSingleStep(call, group, step, i, values) : await runParallelStep(call, group, step, i, values);
    if (!result.ok) return result;
    values.previous = result.output;
    if (step.as !== undefined) values.outputs.set(step.as, result.output);
  }
  return { ok: true, output: values.previous };
}

async function runSingleStep(
  call: ChainCall,
  group: ChildGroup,
  step: Extract<ChainStep, { kind: 'single' }>,
  i: number,
  values: ChainValues,
): Promise<ChainResult> {
  const task = renderChainTask(step.task, values);
  // Upstream prints the `+1` literally (a quirk clients may match on).
  call.host.info(`chain step ${i}+1: ${step.agent.name} — ${Array.from(task).slice(0, 80).join('')}`);
  const result = await call.host.runChild({
    agent: step.agent,
    task,
    ...(step.model !== undefined ? { model: step.model } : {}),
    context: call.context ?? step.agent.defaultContext,
    depth: call.depth + 1,
    maxDepth: childMaxDepth(call.host.settings.maxDepth, step.agent),
    runId: `${group.runId}-${i}`,
    parentRunId: group.runId,
    toolCallId: call.toolCallId,
    signal: group.signal,
  });
  if (result.ok) return { ok: true, output: result.output };
  if (result.state === 'cancelled' || group.signal.aborted) return { ok: false, output: CHAIN_ABORTED };
  return { ok: false, output: `chain step ${i} (${step.agent.name}) failed: ${result.output}` };
}

async function runParallelStep(
  call: ChainCall,
  group: ChildGroup,
  step: Extract<ChainStep, { kind: 'parallel' }>,
  i: number,
  values: ChainValues,
): Promise<ChainResult> {
  const batch = await runParallel({
    host: call.host,
    tasks: step.tasks.map((task) => ({ ...task, task: renderChainTask(task.task, values) })),
    ...(step.concurrency !== undefined ? { concurrency: step.concurrency } : {}),
    // A parallel step is fresh unless the chain says otherwise (upstream), whatever its agents' defaults.
    context: call.context ?? 'fresh',
    toolCallId: call.toolCallId,
    depth: call.depth,
    parentRunId: group.runId,
    runId: `${group.runId}-${i}`,
  });
  if (batch.ok) return { ok: true, output: batch.output };
  if (batch.state === 'cancelled') return { ok: false, output: CHAIN_ABORTED };
  return { ok: false, output: `chain step ${i} (parallel group) failed: ${batch.output}` };
}
