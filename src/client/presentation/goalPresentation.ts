// What the status bar and the notifications say about the session's goal (pure: the VS Code glue shows it).
import { goalPhaseActive, type GoalPhaseName, type GoalView, type WorkStateView } from '../../shared/goalState';

const PHASE_LABELS: Record<GoalPhaseName, string> = {
  idle: 'idle',
  planning: 'planning',
  reviewing: 'reviewing the plan',
  plan_ready: 'plan ready',
  deploying: 'deploying',
  running: 'running',
  synthesizing: 'summarizing',
  verifying: 'verifying',
  replanning: 're-planning',
  blocked: 'blocked',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function goalPhaseLabel(goal: Pick<GoalView, 'phase' | 'certified'>): string {
  return goal.phase === 'done' && goal.certified ? 'certified' : PHASE_LABELS[goal.phase];
}

/** Steps that have finished (done, failed or skipped) and all the plan's steps. */
export function goalProgress(goal: GoalView): { finished: number; total: number } {
  const steps = goal.plan?.steps ?? [];
  return {
    finished: steps.filter((s) => s.status === 'done' || s.status === 'failed' || s.status === 'skipped').length,
    total: steps.length,
  };
}

/** The status-bar item while a goal is active: its phase, the wave and the steps done; undefined when none is. */
export function goalStatusText(goal: GoalView | undefined, work?: WorkStateView): { text: string; tooltip: string } | undefined {
  if (!goal || !goalPhaseActive(goal.phase)) return undefined;
  const { finished, total } = goalProgress(goal);
  const parts = [`$(target) Goal: ${goalPhaseLabel(goal)}`];
  if (goal.wave && (goal.phase === 'running' || goal.phase === 'deploying')) parts.push(`wave ${goal.wave.index}`);
  if (total > 0) parts.push(`${finished}/${total} steps`);
  const tooltip = [
    `Goal: ${clip(goal.goal, 200)}`,
    ...(goal.message ? [goal.message] : []),
    ...(work?.lastActivity ? [`Last activity: ${work.lastActivity}`] : []),
    'Click to open the Goal Control Center.',
  ].join('\n');
  return { text: parts.join(' · '), tooltip };
}

export interface GoalNotice {
  /** One notification per key: a plan version waiting for review, or the goal's end. */
  key: string;
  kind: 'planReady' | 'ended';
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** The notification the goal's state calls for, if any: the plan waits for approval, or the goal ended. */
export function goalNotice(goal: GoalView | undefined): GoalNotice | undefined {
  if (!goal) return undefined;
  const what = `"${clip(goal.goal, 80)}"`;
  if (goal.phase === 'plan_ready' && !goal.autoDeploy && goal.plan) {
    const n = goal.plan.steps.length;
    return {
      key: `${goal.id}:plan:${goal.plan.version}`,
      kind: 'planReady',
      level: 'info',
      message: `Catalyst Code: the plan for ${what} is ready (${n} step${n === 1 ? '' : 's'}) and waits for your approval.`,
    };
  }
  if (goalPhaseActive(goal.phase) || goal.phase === 'idle') return undefined;
  const key = `${goal.id}:end:${goal.phase}`;
  if (goal.phase === 'cancelled') return { key, kind: 'ended', level: 'info', message: `Catalyst Code: the goal ${what} was cancelled.` };
  if (goal.phase === 'failed')
    return {
      key,
      kind: 'ended',
      level: 'error',
      message: `Catalyst Code: the goal ${what} failed${goal.error ? `: ${clip(goal.error, 200)}` : '.'}`,
    };
  const { finished, total } = goalProgress(goal);
  const failed = goal.plan?.steps.filter((s) => s.status !== 'done').length ?? 0;
  const outcome = total ? ` (${finished - failed}/${total} steps done)` : '';
  return goal.certified
    ? { key, kind: 'ended', level: 'info', message: `Catalyst Code: the goal ${what} is certified${outcome}.` }
    : { key, kind: 'ended', level: failed ? 'warning' : 'info', message: `Catalyst Code: the goal ${what} is done${outcome}.` };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
