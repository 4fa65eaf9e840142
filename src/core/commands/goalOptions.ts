/** `start_goal`'s fields, validated and defaulted as upstream's `new_goal` does (research A:699-721). */
import type { CommandOf } from '../../protocol';
import type { SubagentSettings } from '../config/coreConfig';
import type { GoalSettings } from '../goal/goalTypes';

/** The settings, or the error text upstream sends (as a plain `error`, without `done`). */
export function goalSettings(cmd: CommandOf<'start_goal'>, subagents: SubagentSettings): GoalSettings | string {
  const goal = typeof cmd.goal === 'string' ? cmd.goal.trim() : '';
  if (!goal) return 'goal text must not be empty';
  if (goal.length < 4) return 'goal text is too short';
  const concurrency = clamp(numberOr(cmd.concurrency, subagents.parallelConcurrency), 1, 32);
  const maxTasks = clamp(numberOr(cmd.max_tasks, subagents.parallelMaxTasks), 1, 64);
  if (concurrency > maxTasks) return `concurrency (${concurrency}) cannot exceed max_tasks (${maxTasks})`;
  const allowedModels = strings(cmd.allowed_models);
  const role = (value: unknown): string | null => {
    const model = typeof value === 'string' ? value.trim() : '';
    return model && (allowedModels.length === 0 || allowedModels.includes(model)) ? model : null;
  };
  const ceo = cmd.ceo_mode === true;
  return {
    goal,
    model: String(cmd.model),
    concurrency,
    maxTasks,
    allowedModels,
    allowedProviders: strings(cmd.allowed_providers),
    autoDeploy: cmd.auto_deploy !== false,
    ceoMode: ceo,
    maxIterations: ceo ? clamp(numberOr(cmd.max_iterations, 3), 1, 32) : numberOr(cmd.max_iterations, 0),
    maxPlanRevisions: ceo ? clamp(numberOr(cmd.max_plan_revisions, 2), 0, 16) : numberOr(cmd.max_plan_revisions, 0),
    roleModels: { planner: role(cmd.planner_model), worker: role(cmd.worker_model), reviewer: role(cmd.reviewer_model) },
    modelConcurrency: modelConcurrency(cmd.model_concurrency, allowedModels, concurrency),
    reasoningEffort: typeof cmd.reasoning_effort === 'string' ? cmd.reasoning_effort : 'medium',
  };
}

/** Keys outside a non-empty allowlist are dropped; values are clamped to 1..concurrency. */
function modelConcurrency(value: unknown, allowed: string[], concurrency: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [model, n] of Object.entries(value)) {
    if (typeof n !== 'number' || !Number.isFinite(n)) continue;
    if (allowed.length > 0 && !allowed.includes(model)) continue;
    out[model] = clamp(n, 1, concurrency);
  }
  return out;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : fallback;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
}
