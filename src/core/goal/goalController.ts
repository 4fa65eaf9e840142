/**
 * The session's goal (upstream's `GoalMode`): its state, the phase machine with upstream's `transition` semantics
 * (goal_phase, then goal_state), and the events that report it. One per core runtime, built by app/ over a `GoalHost`.
 */
import { ORCHESTRATOR } from '../intercom/intercomBus';
import type { RunScope } from '../runtime/runScope';
import type { SessionEvent } from '../runtime/eventSink';
import { emptyWorkState, goalPlanEvent, goalStateEvent, goalWorkState } from './goalEvents';
import { canTransition } from './goalTransitions';
import type { GoalHost } from './goalHost';
import { isActive, type Goal, type GoalPhase } from './goalTypes';

/** Work the goal runs in the background and stops when it ends: the deploy (goalDeploy.ts), the scout (speculativeScout.ts). */
export interface GoalWork {
  cancel(): void;
}

export class GoalController {
  goal: Goal | undefined;
  /** The goal's turn while it runs (planning, self-review, verify, wrap-up): events it causes carry its run_id and sequence, as upstream's do. */
  turn: RunScope | undefined;
  /** The live deploy: its root run (id = the goal id) holds every worker's child scope. */
  deploy: GoalWork | undefined;
  /** The speculative scout while the goal plans; stopped when the deploy starts or the goal ends. */
  scout: GoalWork | undefined;
  private workVersion = 0;

  constructor(readonly host: GoalHost) {
    host.onNeedDecision((from, message) => this.autoResolveDecision(from, message));
  }

  /** While the goal plans, reviews, deploys or verifies, a child's need_decision is not asked: it is shown as auto-resolved. */
  private autoResolveDecision(from: string, message: string): boolean {
    if (!this.goal || !AUTO_RESOLVE_PHASES.has(this.goal.phase)) return false;
    this.host.emit({ type: 'intercom_message', from, to: ORCHESTRATOR, reason: 'need_decision', message, auto_resolved: true });
    return true;
  }

  get active(): boolean {
    return !!this.goal && isActive(this.goal.phase);
  }

  emit(event: SessionEvent): void {
    const turn = this.turn;
    if (turn && !turn.cancelled && this.host.activeRun() === turn) this.host.emitInRun(turn, event);
    else this.host.emit(event);
  }

  emitState(): void {
    this.emit(goalStateEvent(this.goal));
  }

  emitPlan(): void {
    const plan = this.goal && goalPlanEvent(this.goal);
    if (plan) this.emit(plan);
  }

  emitWorkState(): void {
    if (this.goal) this.emit(goalWorkState(this.goal, ++this.workVersion));
  }

  /** Reset, clear, new_session, load_session: the goal is gone, and its workers are stopped. */
  clear(): void {
    if (!this.goal) return;
    this.stopWork();
    this.goal = undefined;
    this.turn = undefined;
    this.host.emit(goalStateEvent(undefined, true));
    this.host.emit(emptyWorkState(++this.workVersion));
  }

  /** Stops the goal's background work: the deploy's workers and the speculative scout. */
  stopWork(): void {
    this.stopScout();
    this.deploy?.cancel();
    this.deploy = undefined;
  }

  stopScout(): void {
    this.scout?.cancel();
    this.scout = undefined;
  }

  /** Whether the goal may move to `to` now; if not, upstream's `invalid_goal_transition` error is sent. */
  transitionAllowed(to: GoalPhase): boolean {
    const from = this.goal?.phase ?? 'idle';
    if (canTransition(from, to)) return true;
    this.emit({ type: 'error', code: 'invalid_goal_transition', from, to, message: `invalid goal transition: ${from} -> ${to}` });
    return false;
  }

  /** A valid transition bumps the version and emits goal_phase then goal_state; an invalid one is upstream's error. */
  transition(to: GoalPhase, message?: string): boolean {
    const goal = this.goal;
    if (!goal) return false;
    if (!this.transitionAllowed(to)) return false;
    this.enter(to, { message });
    return true;
  }

  /** Whether `goal` is still the session's goal and in `phase` (a follow-up that waited checks it before acting). */
  still(goal: Goal, phase: GoalPhase): boolean {
    return this.goal === goal && goal.phase === phase;
  }

  /** Upstream's `fail_goal`: the error, no runs, → failed. */
  fail(error: string): void {
    if (!this.goal) return;
    this.stopScout();
    this.goal.error = error;
    this.goal.activeRunIds = [];
    this.transition('failed', error);
  }

  /** Upstream's `cancel_goal`: the reason as the error, no runs, → cancelled. */
  cancel(reason: string): void {
    if (!this.goal) return;
    this.stopScout();
    this.goal.error = reason;
    this.goal.activeRunIds = [];
    this.transition('cancelled', reason);
  }

  /** A change outside a transition (a verdict): a new version, then goal_state. */
  touch(): void {
    if (!this.goal) return;
    this.goal.version++;
    this.emitState();
  }

  /**
   * Each wave sets the phase to running directly, as upstream does (so a later wave emits running→running), with the
   * wave's progress on the goal_phase.
   */
  startWave(wave: number, stepCount: number, doneCount: number): void {
    this.enter('running', { message: `wave ${wave} — dispatching steps`, wave, step_count: stepCount, done_count: doneCount });
    this.emitWorkState();
  }

  private enter(to: GoalPhase, fields: { message?: string; wave?: number; step_count?: number; done_count?: number }): void {
    const goal = this.goal!;
    const from = goal.phase;
    goal.phase = to;
    goal.version++;
    const extra = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    this.emit({ type: 'goal_phase', from, to, ...extra });
    this.emitState();
  }
}

/** Upstream's `auto_resolves_need_decision` phases (goal.rs). */
const AUTO_RESOLVE_PHASES: ReadonlySet<GoalPhase> = new Set(['planning', 'reviewing', 'deploying', 'running', 'verifying', 'replanning']);
