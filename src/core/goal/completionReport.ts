/** The deterministic completion summary upstream sends when no wrap-up text replaces it (research A:880-884). */
import type { Goal } from './goalTypes';

const PER_STEP = 3000;
const TOTAL = 20_000;

export function completionReport(goal: Goal, artifactPath: (stepId: string) => string): string {
  const failed = goal.prompts.filter((p) => p.status === 'failed').length;
  const skipped = goal.prompts.filter((p) => p.status === 'skipped').length;
  const done = goal.prompts.filter((p) => p.status === 'done').length;
  const lines = [`Goal: ${goal.settings.goal}`];
  if (goal.plan) lines.push(`Plan: ${goal.plan.summary}`);
  lines.push(`Outcome: ${done}/${goal.prompts.length} step(s) done${outcomeMessage(failed, skipped)}`, '');
  let total = 0;
  for (const p of goal.prompts) {
    const summary = (p.summary ?? '').slice(0, PER_STEP);
    const full = total + summary.length <= TOTAL;
    if (full) total += summary.length;
    lines.push(`[${p.status}] ${p.title} (${p.agent})${full && summary ? `: ${summary}` : ''}`, `  output: ${artifactPath(p.step_id)}`);
  }
  const text = lines.join('\n').trim();
  return text || 'Goal finished (no completion summary provided).';
}

/** " with N failed step(s)[, M skipped]", or nothing when every step was done. */
export function outcomeMessage(failed: number, skipped: number): string {
  if (failed === 0 && skipped === 0) return '';
  return ` with ${failed} failed step(s)${skipped ? `, ${skipped} skipped` : ''}`;
}
