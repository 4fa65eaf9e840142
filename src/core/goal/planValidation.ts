/**
 * `goal_write_plan`'s arguments → a plan, or the error the model reads (upstream's `apply_plan`, research A:808-824),
 * checked in upstream's order. Ours also refuses an agent no definition names (the plan's decision D2), so the planner
 * re-plans in the same turn instead of deploying a step that can only fail.
 */
import type { GoalPlan, PlanStep } from './goalTypes';

export interface PlanLimits {
  maxTasks: number;
  allowedModels: readonly string[];
  /** The agents a step may name. */
  agents: readonly string[];
}

export function validatePlan(args: Record<string, unknown>, limits: PlanLimits): GoalPlan | string {
  const summary = typeof args.summary === 'string' ? args.summary.trim() : '';
  if (!summary) return "goal_write_plan requires a non-empty 'summary'";
  if (!Array.isArray(args.steps)) return "goal_write_plan requires a 'steps' array";
  if (args.steps.length === 0) return 'goal_write_plan requires at least one step';
  if (args.steps.length > limits.maxTasks) return `plan has ${args.steps.length} steps (max_tasks=${limits.maxTasks})`;
  const steps: PlanStep[] = [];
  for (const [i, raw] of args.steps.entries()) {
    const step = planStep(raw, i, limits);
    if (steps.some((s) => s.id === step.id)) return `duplicate step id '${step.id}'`;
    if (!step.agent) return `step '${step.id}' missing agent`;
    if (!step.task) return `step '${step.id}' missing task prompt`;
    if (!limits.agents.includes(step.agent))
      return `step '${step.id}' uses unknown agent '${step.agent}'; available agents: ${limits.agents.join(', ')}`;
    steps.push(step);
  }
  const graphError = dependencyError(steps);
  if (graphError) return graphError;
  return { summary, steps, risks: strings(args.risks), validation: strings(args.validation) };
}

function planStep(raw: unknown, index: number, limits: PlanLimits): PlanStep {
  const s = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
  const model = text(s.model);
  const group = s.parallel_group;
  return {
    id: text(s.id) || String(index + 1),
    agent: text(s.agent),
    title: text(s.title) || `step ${index + 1}`,
    task: text(s.task),
    model: model && (limits.allowedModels.length === 0 || limits.allowedModels.includes(model)) ? model : null,
    depends_on: Array.isArray(s.depends_on) ? s.depends_on.map(text).filter(Boolean) : [],
    parallel_group: typeof group === 'string' || typeof group === 'number' ? group : null,
  };
}

function dependencyError(steps: readonly PlanStep[]): string | undefined {
  const ids = new Set(steps.map((s) => s.id));
  for (const step of steps) {
    for (const dep of step.depends_on) {
      if (dep === step.id) return `step '${step.id}' cannot depend on itself`;
      if (!ids.has(dep)) return `step '${step.id}' depends on unknown id '${dep}'`;
    }
  }
  return planWaves(steps) ? undefined : 'step depends_on graph contains a cycle';
}

/** Topological levels, each sorted by id (upstream's `topo_waves`); undefined when the graph has a cycle. */
export function planWaves(steps: readonly PlanStep[]): string[][] | undefined {
  const placed = new Set<string>();
  const waves: string[][] = [];
  while (placed.size < steps.length) {
    const ready = steps.filter((s) => !placed.has(s.id) && s.depends_on.every((d) => placed.has(d))).map((s) => s.id);
    if (ready.length === 0) return undefined;
    ready.sort();
    for (const id of ready) placed.add(id);
    waves.push(ready);
  }
  return waves;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}
