import type { GoalPhaseName, GoalStepStatus, GoalStepView, GoalVerdictView, GoalView } from '../../src/shared/goalState';
import { goalPhaseActive } from '../../src/shared/goalState';

/**
 * The deploy's waves as the core runs them: each wave is a topological level of the plan's `dependsOn` graph (a step
 * runs once every step it depends on ran), its steps sorted by id as upstream's `topo_waves`. A dependency on an unknown
 * id is ignored; steps caught in a cycle (a plan the core would refuse) make one last wave rather than vanish.
 */
export function goalWaves(steps: readonly GoalStepView[]): GoalStepView[][] {
  const ids = new Set(steps.map((s) => s.id));
  const placed = new Set<string>();
  const waves: GoalStepView[][] = [];
  let left = [...steps];
  while (left.length > 0) {
    const ready = left.filter((s) => s.dependsOn.every((d) => d === s.id || !ids.has(d) || placed.has(d)));
    const wave = ready.length > 0 ? ready : left;
    wave.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const s of wave) placed.add(s.id);
    waves.push(wave);
    left = left.filter((s) => !placed.has(s.id));
  }
  return waves;
}

/** The phase as the header's badge says it. */
export const PHASE_TEXT: Record<GoalPhaseName, string> = {
  idle: 'Idle',
  planning: 'Planning',
  reviewing: 'Reviewing the plan',
  plan_ready: 'Plan ready',
  deploying: 'Deploying',
  running: 'Running',
  synthesizing: 'Summarizing',
  verifying: 'Verifying',
  replanning: 'Re-planning',
  blocked: 'Blocked',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The badge's tone (the stylesheet's tone-* colours, shared with the chat's badges). */
export function phaseTone(goal: Pick<GoalView, 'phase' | 'certified'>): string {
  if (goal.phase === 'done') return 'ok';
  if (goal.phase === 'failed' || goal.phase === 'blocked') return 'error';
  if (goal.phase === 'cancelled') return 'muted';
  if (goal.phase === 'plan_ready') return 'warn';
  return 'busy';
}

/** A running step's icon stands still, as a running subagent row's does (issue #14): the header's badge says it is busy. */
export const STEP_ICONS: Record<GoalStepStatus, string> = {
  pending: 'circle-large-outline',
  running: 'play-circle',
  done: 'pass',
  failed: 'error',
  skipped: 'debug-step-over',
};

export const STEP_STATUS_TEXT: Record<GoalStepStatus, string> = {
  pending: 'Pending',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
};

export const VERDICT_TITLES: Record<GoalVerdictView['kind'], string> = {
  step: 'Validation review',
  review: 'Plan self-review',
  verify: 'Verification',
};

/** Whether the Control Center offers the start form: no goal, or the last one ended. */
export function canStartGoal(goal: GoalView | undefined): boolean {
  return !goal || !goalPhaseActive(goal.phase);
}

/** "3 of 5 done" for a set of steps: what finished (done, failed or skipped) of all. */
export function stepProgress(steps: readonly GoalStepView[]): { finished: number; total: number; failed: number } {
  let finished = 0;
  let failed = 0;
  for (const s of steps) {
    if (s.status === 'done' || s.status === 'failed' || s.status === 'skipped') finished++;
    if (s.status === 'failed') failed++;
  }
  return { finished, total: steps.length, failed };
}

/** The defaults the core applies when the form leaves a field empty (upstream's subagents.parallel settings). */
export const GOAL_DEFAULTS = { concurrency: 4, maxTasks: 64 } as const;
export const GOAL_LIMITS = { concurrency: { min: 1, max: 32 }, maxTasks: { min: 1, max: 64 } } as const;
/** The core refuses a goal text shorter than this (trimmed): "goal text is too short". */
export const MIN_GOAL_CHARS = 4;

/** A number field's value: undefined when empty (the core's default applies), NaN when it is not an integer in range. */
export function parseBoundedInt(text: string, limits: { min: number; max: number }): number | undefined {
  const raw = text.trim();
  if (raw === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= limits.min && n <= limits.max ? n : NaN;
}

/** "12s", "4m 05s", "1h 02m": how long a goal has been going (goals run for hours; a run's formatElapsed stops at minutes). */
export function formatGoalElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * The completion summary as Markdown that keeps its line breaks: the core's deterministic report (what our core and
 * upstream's send when the wrap-up turn is short) is plain lines — "Goal: …", "[done] step (agent): …", "  output: …" —
 * that Markdown would run together into one paragraph. A line followed by another becomes a hard break; code fences
 * are left as they are.
 */
export function summaryMarkdown(text: string): string {
  const lines = text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s{0,3}(```|~~~)/.test(lines[i])) fenced = !fenced;
    else if (!fenced && lines[i].trim() !== '' && (lines[i + 1] ?? '').trim() !== '' && !/^\s{0,3}(```|~~~)/.test(lines[i + 1]))
      lines[i] = `${lines[i].replace(/\s+$/, '')}  `;
  }
  return lines.join('\n');
}
