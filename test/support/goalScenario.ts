// Test support (imported only by *.test.ts): goal scenarios (test/core/goal*.test.ts) — the speculative scout on a route
// of its own, and waiting for a goal's end.
import { SCOUT_TASK_HEADING } from '../../src/core/goal/speculativeScout';
import type { CoreEvent } from './coreProcess';
import { startScenario, type Scenario, type ScenarioOptions } from './coreScenario';
import type { ScriptedResponse } from './scriptedModelServer';

/** How long a goal may take to end in a scenario (its workers and follow-up turns all answer from the scripted model). */
const GOAL_END_TIMEOUT_MS = 30_000;

/** The route key of the speculative scout's requests (its task's first line). */
export const SCOUT_ROUTE = SCOUT_TASK_HEADING;
/** The gate a parked scout waits at: never opened, so the scout runs until the goal stops it. */
export const SCOUT_GATE = 'speculative-scout';
/** A scout's response that never comes: the scout runs until the goal stops it (route it at `SCOUT_ROUTE`). */
export const parkedScout = (): ScriptedResponse => ({ holdUntil: SCOUT_GATE });

/** Scouts a scenario can start (one per start_goal) before its scout route runs dry. */
const PARKED_SCOUTS = 4;

/**
 * A scenario for goals: every speculative scout is parked (its request answered nothing until the goal stops it), so
 * it never takes a response meant for the planner or a worker, and never finishes with findings; `routes` may give
 * the scout a script of its own instead (`SCOUT_ROUTE`).
 */
export function startGoalScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  const parked = Array.from({ length: PARKED_SCOUTS }, parkedScout);
  return startScenario({ ...opts, routes: { [SCOUT_ROUTE]: parked, ...opts.routes } });
}

/** Whether an event is a `subagent_start` of the speculative scout. */
export const isScoutStart = (e: CoreEvent): boolean => e.type === 'subagent_start' && String(e.task ?? '').startsWith(SCOUT_TASK_HEADING);

/** The events without the speculative scouts' own (every event carrying a scout's run_id), for assertions on the steps' runs. */
export function withoutScout(events: CoreEvent[], all: CoreEvent[] = events): CoreEvent[] {
  const scouts = new Set(all.filter(isScoutStart).map((e) => e.run_id));
  return events.filter((e) => !(typeof e.run_id === 'string' && scouts.has(e.run_id)));
}

/** The chat requests (POSTs) other than the speculative scout's. */
export const nonScoutChats = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST' && r.route !== SCOUT_ROUTE);

/** The goal's goal_state in `phase` (it follows its goal_phase), from event index `from` on. */
export function goalEnded(s: Scenario, phase: string, from: number): Promise<CoreEvent> {
  return s.core.waitFor((e) => e.type === 'goal_state' && e.phase === phase, { from, timeoutMs: GOAL_END_TIMEOUT_MS });
}

/**
 * The goal's terminal goal_state and every event since `from` (unsolicited ones left out), once the follow-up turn that ended it is done too:
 * waiting for that turn's `done` keeps a next turn from being queued behind it.
 */
export async function goalSettled(s: Scenario, phase: string, from: number): Promise<{ ended: CoreEvent; events: CoreEvent[] }> {
  const ended = await goalEnded(s, phase, from);
  await s.core.waitForType('done', { from: s.core.events.indexOf(ended) });
  return { ended, events: s.core.answerSince(from) };
}
