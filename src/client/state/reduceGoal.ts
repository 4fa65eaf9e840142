// Reducers for goal mode: the core's goal_* events and work_state into `state.goal` / `state.workState` (the contract of
// docs/plans/issue-16-goal-mode.md §2). goal_state carries the whole goal and replaces it each time, so a late goal_status
// answer is harmless; the other events fill what goal_state does not carry (the plan's shape, the wave, verdicts, the summary).
import {
  GOAL_PHASES,
  GOAL_STEP_STATUSES,
  goalPhaseActive,
  type GoalPhaseName,
  type GoalPlanView,
  type GoalStepStatus,
  type GoalStepView,
  type GoalVerdictView,
  type GoalView,
  type WorkStateView,
} from '../../shared/goalState';
import type { SessionState } from '../../shared/sessionState';
import type { GoalPlanStep } from '../../protocol';
import { type Untrusted, type UntrustedEvent, bool, num, record, records, str, strings } from './eventFields';

/** What upstream's core sends for an empty completion summary (research A: goal_completion_summary). */
export const EMPTY_COMPLETION_SUMMARY = 'Goal finished (no completion summary provided).';

interface PromptFields {
  step_id: unknown;
  agent: unknown;
  title: unknown;
  status: unknown;
  run_id: unknown;
  summary: unknown;
}
type Prompt = Untrusted<PromptFields>;

// ── goal_state ───────────────────────────────────────────────────────────────

/** The whole goal; the idle (cleared) form removes it. */
export function reduceGoalState(s: SessionState, e: UntrustedEvent<'goal_state'>): SessionState {
  const id = str(e.id);
  const phase = phaseOf(e.phase);
  if (!id || phase === undefined || phase === 'idle') return s.goal === undefined ? s : { ...s, goal: undefined };
  const prev = s.goal?.id === id ? s.goal : undefined;
  const prompts = records<PromptFields>(e.prompts);
  const planRevision = num(e.plan_revision) ?? prev?.planRevision ?? 0;
  const plan = planWithPrompts(prev?.plan, prompts, phase, num(e.version) ?? 0, nextPlanNumber(prev, planRevision));
  const error = str(e.error);
  const goal: GoalView = {
    id,
    goal: str(e.goal) ?? prev?.goal ?? '',
    phase,
    mode: str(e.mode) === 'ceo' || (e.mode === undefined && e.ceo_mode === true) ? 'ceo' : 'single_pass',
    autoDeploy: bool(e.auto_deploy) ?? prev?.autoDeploy ?? true,
    concurrency: num(e.concurrency) ?? prev?.concurrency ?? 0,
    maxTasks: num(e.max_tasks) ?? prev?.maxTasks ?? 0,
    modelConcurrency: numbersOf(e.model_concurrency),
    roleModels: roleModelsOf(e.role_models),
    ...optional('parentModel', nonEmpty(e.parent_model)),
    iteration: num(e.iteration) ?? prev?.iteration ?? 0,
    maxIterations: num(e.max_iterations) ?? prev?.maxIterations ?? 0,
    planRevision,
    maxPlanRevisions: num(e.max_plan_revisions) ?? prev?.maxPlanRevisions ?? 0,
    ...optional('plan', plan),
    ...optional('planCount', plan?.number ?? prev?.planCount),
    activeRunIds: strings(e.active_run_ids),
    ...optional('wave', prev?.wave),
    ...optional('message', prev?.message),
    verdicts: prev?.verdicts.length ? prev.verdicts : verdictsOf(e.review_verdict, e.verify_verdict),
    certified: bool(e.certified) ?? prev?.certified ?? false,
    remainingGaps: e.remaining_gaps === undefined ? (prev?.remainingGaps ?? []) : strings(e.remaining_gaps),
    ...optional('completionSummary', prev?.completionSummary),
    ...optional('error', error ? error : undefined),
    startedAt: prev?.startedAt ?? startedAtOf(id),
    ...optional('endedAt', goalPhaseActive(phase) ? undefined : (prev?.endedAt ?? Date.now())),
    ...optional('costUsd', prev?.costUsd),
    ...optional('costUnknown', prev?.costUnknown),
  };
  return withGoal(s, goal);
}

/**
 * The plan with each step's progress from goal_state.prompts[]. Before any goal_plan (a client that joined late, or a
 * core that sends prompts first) the prompts are the plan; a revision's planning phase has none, and no plan.
 */
function planWithPrompts(
  plan: GoalPlanView | undefined,
  prompts: Prompt[],
  phase: GoalPhaseName,
  version: number,
  number: number,
): GoalPlanView | undefined {
  if (prompts.length === 0) return phase === 'planning' ? undefined : plan;
  if (!plan) {
    const steps = prompts.map(stepOfPrompt).filter((x) => x !== undefined);
    return { summary: '', steps, risks: [], validation: [], version, number, fromPrompts: true };
  }
  const byId = new Map(prompts.map((p) => [str(p.step_id), p]));
  return { ...plan, steps: plan.steps.map((step) => withProgress(step, byId.get(step.id))) };
}

function stepOfPrompt(p: Prompt): GoalStepView | undefined {
  const id = str(p.step_id);
  if (!id) return undefined;
  return withProgress({ id, agent: str(p.agent) ?? '', title: str(p.title) ?? id, task: '', dependsOn: [], status: 'pending' }, p);
}

function withProgress(step: GoalStepView, p: Prompt | undefined): GoalStepView {
  if (!p) return step;
  return compact({
    ...step,
    status: statusOf(p.status) ?? step.status,
    runId: nonEmpty(p.run_id) ?? step.runId,
    summary: str(p.summary) ?? step.summary,
  });
}

// ── goal_plan, goal_phase, goal_step_complete ────────────────────────────────

export function reduceGoalPlan(s: SessionState, e: UntrustedEvent<'goal_plan'>): SessionState {
  const goal = goalOf(s, e.id);
  if (!goal) return s;
  const before = new Map((goal.plan?.steps ?? []).map((step) => [step.id, step]));
  const steps = records<GoalPlanStep>(e.steps).map((raw, i) => planStep(raw, i, before));
  const content = { summary: str(e.summary) ?? '', steps, risks: strings(e.risks), validation: strings(e.validation) };
  // goal_status re-sends the plan (with the goal's current version): the same plan keeps its number.
  const old = goal.plan;
  const same = old !== undefined && (old.fromPrompts === true || samePlan(old, content));
  const number = same ? old.number : nextPlanNumber(goal, goal.planRevision);
  const plan: GoalPlanView = { ...content, version: num(e.version) ?? 0, number };
  return withGoal(s, { ...goal, plan, planCount: number });
}

/** The number of a goal's next new plan: one more than the plans seen, and at least the CEO's revision count + 1. */
function nextPlanNumber(goal: GoalView | undefined, planRevision: number): number {
  return Math.max((goal?.planCount ?? 0) + 1, planRevision + 1);
}

function samePlan(a: GoalPlanView, b: Pick<GoalPlanView, 'summary' | 'steps' | 'risks' | 'validation'>): boolean {
  const text = (p: Pick<GoalPlanView, 'summary' | 'steps' | 'risks' | 'validation'>) =>
    JSON.stringify([p.summary, p.risks, p.validation, p.steps.map((st) => [st.id, st.agent, st.title, st.task, st.dependsOn])]);
  return text(a) === text(b);
}

function planStep(raw: Untrusted<GoalPlanStep>, i: number, before: Map<string, GoalStepView>): GoalStepView {
  const id = nonEmpty(raw.id) ?? String(i + 1);
  const group = num(raw.parallel_group) !== undefined ? String(raw.parallel_group) : nonEmpty(raw.parallel_group);
  const known = before.get(id);
  return compact({
    id,
    agent: str(raw.agent) ?? '',
    title: nonEmpty(raw.title) ?? `step ${i + 1}`,
    task: str(raw.task) ?? '',
    model: nonEmpty(raw.model),
    dependsOn: strings(raw.depends_on),
    parallelGroup: group,
    status: known?.status ?? 'pending',
    runId: known?.runId,
    summary: known?.summary,
  });
}

/** A transition: the phase at once (goal_state follows), its message, and the wave being dispatched. */
export function reduceGoalPhase(s: SessionState, e: UntrustedEvent<'goal_phase'>): SessionState {
  const goal = s.goal;
  const to = phaseOf(e.to);
  if (!goal || to === undefined || to === 'idle') return s;
  const wave = num(e.wave);
  const next: GoalView = compact({
    ...goal,
    completionSummary: goal.completionSummary ?? (to === 'done' && str(e.from) === 'synthesizing' ? wrapUpText(s, e.run_id) : undefined),
    phase: to,
    message: str(e.message) ?? goal.message,
    wave:
      to === 'running' && wave !== undefined
        ? { index: wave, stepCount: num(e.step_count) ?? 0, doneCount: num(e.done_count) ?? 0 }
        : goal.wave,
    endedAt: goalPhaseActive(to) ? undefined : (goal.endedAt ?? Date.now()),
  });
  return withGoal(s, next);
}

/**
 * A classic goal's wrap-up reply, as its summary: a wrap-up of RICH_WRAPUP_MIN_CHARS or more is upstream's (and our
 * core's) summary, so no goal_completion_summary follows it. The core moves the goal to done inside the wrap-up turn, so
 * its goal_phase carries that turn's run_id (else the run in progress is taken); its last non-empty reply is the text.
 */
function wrapUpText(s: SessionState, runId: unknown): string | undefined {
  const run = str(runId) ?? s.run.runId;
  if (!run) return undefined;
  for (let i = s.items.length - 1; i >= 0; i--) {
    const item = s.items[i];
    if (item.kind === 'assistant' && item.runId === run && item.childRunId === undefined && item.text.trim()) return item.text;
  }
  return undefined;
}

export function reduceGoalStepComplete(s: SessionState, e: UntrustedEvent<'goal_step_complete'>): SessionState {
  const goal = s.goal;
  const stepId = str(e.step_id);
  const index = goal?.plan && stepId ? goal.plan.steps.findIndex((step) => step.id === stepId) : -1;
  if (!goal?.plan || index < 0) return s;
  const step = goal.plan.steps[index];
  const status = statusOf(e.status) ?? (e.ok === true ? 'done' : 'failed');
  const steps = goal.plan.steps.slice();
  steps[index] = compact({ ...step, status, summary: str(e.summary) ?? step.summary, runId: nonEmpty(e.run_id) ?? step.runId });
  return withGoal(s, { ...goal, plan: { ...goal.plan, steps } });
}

// ── Verdicts, iterations, certification, the summary ─────────────────────────

export function reduceGoalStepVerdict(s: SessionState, e: UntrustedEvent<'goal_step_verdict'>): SessionState {
  return withVerdict(s, undefined, { kind: 'step', ok: e.ok === true, summary: str(e.output) ?? '' });
}

export function reduceGoalReviewVerdict(s: SessionState, e: UntrustedEvent<'goal_review_verdict'>): SessionState {
  return withVerdict(
    s,
    e.id,
    compact({
      kind: 'review',
      ok: e.ok === true,
      summary: str(e.summary) ?? '',
      iteration: num(e.iteration),
      evidencePaths: listOrUndefined(e.evidence_paths),
    }),
  );
}

export function reduceGoalVerifyVerdict(s: SessionState, e: UntrustedEvent<'goal_verify_verdict'>): SessionState {
  const gaps = strings(e.remaining_gaps);
  const next = withVerdict(
    s,
    e.id,
    compact({
      kind: 'verify',
      ok: e.ok === true,
      summary: str(e.summary) ?? '',
      iteration: num(e.iteration),
      remainingGaps: gaps,
      evidencePaths: listOrUndefined(e.evidence_paths),
    }),
  );
  return next === s || !next.goal ? next : withGoal(next, { ...next.goal, remainingGaps: gaps });
}

export function reduceGoalIteration(s: SessionState, e: UntrustedEvent<'goal_iteration'>): SessionState {
  const goal = goalOf(s, e.id);
  if (!goal) return s;
  return withGoal(s, {
    ...goal,
    iteration: num(e.iteration) ?? goal.iteration,
    maxIterations: num(e.max_iterations) ?? goal.maxIterations,
    planRevision: num(e.plan_revision) ?? goal.planRevision,
    maxPlanRevisions: num(e.max_plan_revisions) ?? goal.maxPlanRevisions,
  });
}

export function reduceGoalCertified(s: SessionState, e: UntrustedEvent<'goal_certified'>): SessionState {
  const goal = goalOf(s, e.id);
  if (!goal || e.certified === false) return s;
  return withGoal(s, { ...goal, certified: true, iteration: num(e.iteration) ?? goal.iteration });
}

export function reduceGoalCompletionSummary(s: SessionState, e: UntrustedEvent<'goal_completion_summary'>): SessionState {
  const goal = s.goal;
  if (!goal) return s;
  const text = str(e.text)?.trim() ? (e.text as string) : EMPTY_COMPLETION_SUMMARY;
  return withGoal(s, { ...goal, completionSummary: text });
}

// ── work_state ───────────────────────────────────────────────────────────────

/** The core's work summary; the empty one (reset, a cleared goal) removes it. */
export function reduceWorkState(s: SessionState, e: UntrustedEvent<'work_state'>): SessionState {
  const view: WorkStateView = {
    goal: str(e.goal) ?? '',
    done: strings(e.done),
    inProgress: strings(e.in_progress),
    next: strings(e.next),
    recentFiles: strings(e.recent_files),
    lastActivity: str(e.last_activity) ?? '',
  };
  const empty = !view.goal && !view.done.length && !view.inProgress.length && !view.next.length && !view.recentFiles.length;
  if (empty) return s.workState === undefined ? s : { ...s, workState: undefined };
  return same(s.workState, view) ? s : { ...s, workState: view };
}

// ── The core's process ───────────────────────────────────────────────────────

/**
 * A goal lives in the core's process (ours and upstream's: it does not survive a restart), so when the core stops,
 * crashes or restarts an active goal is gone; a finished one stays on screen for its summary.
 */
export function reduceGoalOnCoreStatus(s: SessionState): SessionState {
  const status = s.core.status;
  if (status === 'ready' || status === 'starting' || !s.goal || !goalPhaseActive(s.goal.phase)) return s;
  return { ...s, goal: undefined, workState: undefined };
}

// ── Helpers ──────────────────────────────────────────────────────────────────

/** The session's goal when an event names it (or names none: upstream's verdicts may omit the id). */
function goalOf(s: SessionState, id: unknown): GoalView | undefined {
  const named = str(id);
  return s.goal && (!named || named === s.goal.id) ? s.goal : undefined;
}

function withVerdict(s: SessionState, id: unknown, verdict: GoalVerdictView): SessionState {
  const goal = goalOf(s, id);
  return goal ? withGoal(s, { ...goal, verdicts: [...goal.verdicts, verdict] }) : s;
}

/** goal_state's own verdicts ({ok, summary, evidence_paths, at} or null), for a client that missed the verdict events. */
function verdictsOf(review: unknown, verify: unknown): GoalVerdictView[] {
  const out: GoalVerdictView[] = [];
  for (const [kind, raw] of [
    ['review', review],
    ['verify', verify],
  ] as const) {
    const v = record(raw);
    if (v && typeof v.ok === 'boolean')
      out.push(compact({ kind, ok: v.ok, summary: str(v.summary) ?? '', evidencePaths: listOrUndefined(v.evidence_paths) }));
  }
  return out;
}

function withGoal(s: SessionState, goal: GoalView): SessionState {
  return same(s.goal, goal) ? s : { ...s, goal };
}

function phaseOf(v: unknown): GoalPhaseName | undefined {
  const phase = str(v);
  return phase !== undefined && (GOAL_PHASES as readonly string[]).includes(phase) ? (phase as GoalPhaseName) : undefined;
}

function statusOf(v: unknown): GoalStepStatus | undefined {
  const status = str(v);
  return status !== undefined && (GOAL_STEP_STATUSES as readonly string[]).includes(status) ? (status as GoalStepStatus) : undefined;
}

/** Ours and upstream's ids are `goal-<unix ms>`; any other id starts when this client first saw it. */
function startedAtOf(id: string): number {
  const ms = /^goal-(\d{12,14})$/.exec(id)?.[1];
  return ms ? Number(ms) : Date.now();
}

function numbersOf(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(record(v) ?? {})) if (num(value) !== undefined) out[key] = value as number;
  return out;
}

function roleModelsOf(v: unknown): GoalView['roleModels'] {
  const r = record(v) ?? {};
  return compact({ planner: nonEmpty(r.planner), worker: nonEmpty(r.worker), reviewer: nonEmpty(r.reviewer) });
}

function nonEmpty(v: unknown): string | undefined {
  const s = str(v)?.trim();
  return s ? s : undefined;
}

function listOrUndefined(v: unknown): string[] | undefined {
  return v === undefined ? undefined : strings(v);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
