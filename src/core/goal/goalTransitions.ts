/** Upstream's `validate_transition` (research A:760-772): which phase may follow which. */
import { isActive, type GoalPhase } from './goalTypes';

const NEXT: Partial<Record<GoalPhase, readonly GoalPhase[]>> = {
  idle: ['planning'],
  planning: ['plan_ready'],
  plan_ready: ['reviewing', 'deploying', 'planning'],
  reviewing: ['plan_ready', 'planning'],
  deploying: ['running'],
  running: ['verifying', 'synthesizing'],
  verifying: ['done', 'replanning'],
  replanning: ['planning'],
  synthesizing: ['done'],
  blocked: ['planning'],
  done: ['planning'],
  failed: ['planning'],
  cancelled: ['planning'],
};

const FROM_ANY_ACTIVE: readonly GoalPhase[] = ['failed', 'cancelled', 'blocked'];

export function canTransition(from: GoalPhase, to: GoalPhase): boolean {
  if (NEXT[from]?.includes(to)) return true;
  return isActive(from) && FROM_ANY_ACTIVE.includes(to);
}
