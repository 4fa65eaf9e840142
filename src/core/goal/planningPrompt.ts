/** The planning turn's prompt, in our own words after upstream's `planning_prompt` (research A:796-806). */
import { CEO_PERSONA } from './ceoPrompts';
import type { GoalSettings } from './goalTypes';

/** `gaps`: what the last verify found missing (CEO re-planning), with the iteration it was found in. */
export interface ReplanGaps {
  gaps: readonly string[];
  iteration: number;
}

export function planningPrompt(
  settings: GoalSettings,
  agents: readonly string[],
  feedback: string | null = null,
  replan?: ReplanGaps,
  /** The speculative scout's findings, given to a CEO re-plan (upstream's CEO planning prompt carries them). */
  scoutFindings: string | null = null,
): string {
  const lines = [
    ...(settings.ceoMode ? [CEO_PERSONA, ''] : []),
    'You are planning a goal. Plan only: do not implement anything in this turn.',
    '',
    '# Goal',
    settings.goal,
    '',
    '# Constraints',
    `- At most ${settings.maxTasks} steps; up to ${settings.concurrency} run at once.`,
    `- Agents a step may use: ${agents.join(', ')}.`,
  ];
  if (settings.allowedModels.length) lines.push(`- Models allowed: ${settings.allowedModels.join(', ')}.`);
  if (settings.allowedProviders.length) lines.push(`- Providers allowed: ${settings.allowedProviders.join(', ')}.`);
  if (feedback) lines.push('', '# Revision feedback on the previous plan', feedback, 'Write a new plan that addresses it.');
  if (settings.ceoMode && replan?.gaps.length) {
    lines.push(
      '',
      `# Gaps the last verification found (iteration ${replan.iteration}/${settings.maxIterations})`,
      ...replan.gaps.map((g) => `- ${g}`),
      'Plan only the work that closes these gaps; what was verified as done stays done.',
    );
  }
  if (settings.ceoMode && scoutFindings) lines.push('', '# Speculative scout findings', scoutFindings);
  lines.push(
    '',
    '# Scheduling',
    executionProfile(settings.concurrency),
    '',
    '# What to do',
    '1. Optionally read a few files to understand the workspace.',
    settings.ceoMode
      ? '2. Do not call ask: nobody will answer. Decide for yourself and write your assumptions into the plan summary.'
      : '2. If something that changes the plan is unclear (scope, success criteria, anything irreversible), you may call ask once with 1–3 questions; otherwise skip it.',
    '3. Call goal_write_plan exactly once: a summary, the steps (each with an agent and a self-contained task; depends_on for order), risks, and validation criteria.',
    '4. Then confirm the plan in one short paragraph.',
    '',
    'Each step runs as a separate agent that sees only its own task and the outputs of the steps it depends on: write every task so it can be done alone.',
  );
  return lines.join('\n');
}

/** Upstream's `execution_profile`: 1 → serial, 2–7 → parallel, 8+ → ultra-parallel. */
function executionProfile(concurrency: number): string {
  if (concurrency <= 1) return 'Serial: one step at a time. Prefer few, well-ordered steps.';
  if (concurrency < 8)
    return `Parallel: up to ${concurrency} steps at once. Split independent work into steps without dependencies between them.`;
  return `Ultra-parallel: up to ${concurrency} steps at once. Break the work into many small independent steps.`;
}
