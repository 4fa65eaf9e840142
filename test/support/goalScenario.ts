// Test support (imported only by *.test.ts): waiting for a goal's end in a core scenario (test/core/goal*.test.ts).
import type { CoreEvent } from './coreProcess';
import type { Scenario } from './coreScenario';

/** How long a goal may take to end in a scenario (its workers and follow-up turns all answer from the scripted model). */
const GOAL_END_TIMEOUT_MS = 30_000;

/** The goal's goal_state in `phase` (it follows its goal_phase), from event index `from` on. */
export function goalEnded(s: Scenario, phase: string, from: number): Promise<CoreEvent> {
  return s.core.waitFor((e) => e.type === 'goal_state' && e.phase === phase, { from, timeoutMs: GOAL_END_TIMEOUT_MS });
}

/**
 * The goal's terminal goal_state and every event since `from`, once the follow-up turn that ended it is done too:
 * waiting for that turn's `done` keeps a next turn from being queued behind it.
 */
export async function goalSettled(s: Scenario, phase: string, from: number): Promise<{ ended: CoreEvent; events: CoreEvent[] }> {
  const ended = await goalEnded(s, phase, from);
  await s.core.waitForType('done', { from: s.core.events.indexOf(ended) });
  return { ended, events: s.core.events.slice(from) };
}
