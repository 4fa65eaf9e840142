/** A deployed step's task (upstream's deploy prompt, research A:826-832), in our own words where upstream's are prose. */
import type { GoalPlan, GoalSettings, PlanStep, GoalStepPrompt } from './goalTypes';

/** Agents that only look: no build-and-test gate in their task (upstream's list). */
const LOOK_ONLY_AGENTS: ReadonlySet<string> = new Set(['scout', 'researcher', 'context-builder']);

/** `scoutFindings`: what the speculative scout found before the plan was written, given to every step. */
export function stepPrompts(settings: GoalSettings, plan: GoalPlan, scoutFindings: string | null = null): GoalStepPrompt[] {
  return plan.steps.map((step) => ({
    step_id: step.id,
    agent: step.agent,
    title: step.title,
    task: workerTask(settings.goal, step, plan.validation, scoutFindings),
    model: stepModel(settings, step),
    status: 'pending',
    run_id: null,
    summary: null,
  }));
}

function workerTask(goal: string, step: PlanStep, validation: readonly string[], scoutFindings: string | null): string {
  const criteria = validation.length ? validation.map((v) => `- ${v}`).join('\n') : '(none specified)';
  let task = `# Goal\n${goal}\n\n# Step: ${step.title}\n${step.task}\n\n# Validation criteria for the overall goal\n${criteria}`;
  if (scoutFindings) task += `\n\n# Speculative scout findings\n${scoutFindings}`;
  task +=
    '\n\n# Tools\nDeferred tools (git, web, bulk, browser) are not in your schema until loaded: call load_tools with the group you need.';
  if (!LOOK_ONLY_AGENTS.has(step.agent)) {
    task +=
      '\n\n# Before you finish\nBuild the project and run its tests if it has any; fix what your change broke, and report what you ran and the results.';
  }
  return task;
}

/**
 * The role pin of the step's agent (planner, worker or reviewer; other agents have none), else the step's model; a model
 * outside a non-empty allowlist becomes the first allowed one (upstream's `resolve_step_model`).
 */
function stepModel(settings: GoalSettings, step: PlanStep): string | null {
  const model = rolePin(settings, step.agent) ?? step.model;
  const allowed = settings.allowedModels;
  if (model && allowed.length > 0 && !allowed.includes(model)) return allowed[0];
  return model;
}

function rolePin(settings: GoalSettings, agent: string): string | null {
  const { planner, worker, reviewer } = settings.roleModels;
  return agent === 'planner' ? planner : agent === 'worker' ? worker : agent === 'reviewer' ? reviewer : null;
}

/** The outputs of a step's finished dependencies, prepended to its task (upstream's `inject_dependency_context`). */
export function withDependencyOutputs(task: string, deps: readonly { prompt: GoalStepPrompt; artifact: string }[]): string {
  const parts: string[] = [];
  let total = 0;
  for (const { prompt, artifact } of deps) {
    if (prompt.status !== 'done' && prompt.status !== 'failed') continue;
    const block = `## ${prompt.title} (${prompt.step_id}) — ${prompt.status}\n${(prompt.summary ?? '').slice(0, 2000)}\nFull output: ${artifact}`;
    if (total + block.length > 8000) break;
    total += block.length;
    parts.push(block);
  }
  if (parts.length === 0) return task;
  return `--- Prior step outputs ---\n${parts.join('\n\n')}\n--- End of prior step outputs ---\n\n${task}`;
}
