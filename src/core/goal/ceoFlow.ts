/**
 * The CEO (Control Center) loop after planning and after deploying (upstream's `finish_reviewing` / `finish_verifying`,
 * research A:893-905): a self-review turn judges a fresh plan (PASS → deploy, FAIL → revise within the revision budget);
 * a verify turn judges the deployed work against SUMMARY.md (PASS → certified, FAIL → re-plan the gaps within the
 * iteration budget). Either fails the goal once its budget is spent.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { relativeArtifactPath, relativeStepArtifactPath, stepArtifactPath } from './goalArtifacts';
import type { GoalController } from './goalController';
import type { Goal, GoalVerdict } from './goalTypes';
import { selfReviewPrompt, verifyPrompt } from './ceoPrompts';
import { completionReport } from './completionReport';
import { startGoalTurn, waitForTurnSlot } from './goalTurns';
import { parseCeoVerdict } from './verdictParse';

/** What the loop needs of the lifecycle (kept there so the two files do not import each other). */
export interface CeoSteps {
  deploy(ctl: GoalController): void;
  replan(ctl: GoalController): void;
}

/** The self-review, once the slot is free; a slot still busy after the wait fails the goal, as upstream's does. */
export async function startSelfReview(ctl: GoalController, next: CeoSteps): Promise<void> {
  const goal = ctl.goal!;
  const free = await waitForTurnSlot(ctl);
  if (!ctl.still(goal, 'plan_ready') || !goal.plan) return;
  if (!free) return ctl.fail('plan self-review skipped: session still busy after wait');
  ctl.transition('reviewing', 'CEO self-reviewing plan');
  const started = startGoalTurn(ctl, {
    prompt: selfReviewPrompt(goal),
    onEnd: (scope, text) => finishSelfReview(ctl, goal, scope.cancelled, text, next),
  });
  if (!started) ctl.fail('plan self-review could not start');
}

function finishSelfReview(ctl: GoalController, goal: Goal, cancelled: boolean, text: string, next: CeoSteps): void {
  if (!ctl.still(goal, 'reviewing')) return;
  if (cancelled) return ctl.cancel('plan self-review aborted');
  const { ok, summary, gaps } = parseCeoVerdict(text);
  goal.reviewVerdict = verdict(ok, summary, []);
  goal.selfReviewFeedback = ok ? null : gaps.length ? gaps.join('\n') : summary;
  ctl.emit({
    type: 'goal_review_verdict',
    id: goal.id,
    ok,
    summary,
    iteration: goal.iteration,
    plan_revision: goal.planRevision,
    evidence_paths: [],
  });
  ctl.touch();
  if (ok) {
    ctl.transition('plan_ready', 'self-review passed — deploying');
    ctl.emitWorkState();
    next.deploy(ctl);
  } else if (goal.planRevision < goal.settings.maxPlanRevisions) {
    goal.planRevision++;
    goal.feedback = goal.selfReviewFeedback;
    dropPlan(goal);
    emitIteration(ctl, goal);
    ctl.transition('planning', 'self-review failed — revising plan');
    ctl.emitWorkState();
    next.replan(ctl);
  } else {
    ctl.fail(`plan self-review budget exhausted (${goal.planRevision}/${goal.settings.maxPlanRevisions} revisions)`);
    ctl.emitWorkState();
  }
}

/** After the last wave: SUMMARY.md, → verifying, the info, then the verify turn. */
export async function startVerify(ctl: GoalController, outcome: string, anyFailed: boolean, next: CeoSteps): Promise<void> {
  const goal = ctl.goal!;
  const summaryPath = await writeMissionSummary(ctl, goal);
  if (!ctl.still(goal, 'running')) return;
  ctl.transition('verifying', `workers finished${outcome} — verifying against goal (evidence: ${summaryPath})`);
  ctl.host.emit({ type: 'info', message: followUpInfo(anyFailed) });
  const free = await waitForTurnSlot(ctl);
  if (!ctl.still(goal, 'verifying')) return;
  if (!free) {
    ctl.fail('goal verify skipped: another turn is running');
    ctl.host.emit({ type: 'info', message: 'Goal verify finished without parent turn (another turn is running)' });
    return;
  }
  const started = startGoalTurn(ctl, {
    prompt: verifyPrompt(goal, summaryPath),
    onEnd: (scope, text) => finishVerify(ctl, goal, scope.cancelled, text, summaryPath, next),
  });
  if (!started) ctl.fail('goal verify could not start');
}

function finishVerify(ctl: GoalController, goal: Goal, cancelled: boolean, text: string, summaryPath: string, next: CeoSteps): void {
  if (!ctl.still(goal, 'verifying')) return;
  if (cancelled) return ctl.cancel('goal verify aborted');
  const { ok, summary, gaps } = parseCeoVerdict(text);
  // A FAIL always leaves a gap to re-plan, so the next planning turn never starts from blank feedback.
  if (!ok && gaps.length === 0) gaps.push(summary.trim() ? summary.trim().slice(0, 500) : 'verify failed without enumerated gaps');
  goal.verifyVerdict = verdict(ok, summary, [summaryPath]);
  goal.remainingGaps = gaps;
  ctl.emit({
    type: 'goal_verify_verdict',
    id: goal.id,
    ok,
    summary,
    iteration: goal.iteration,
    remaining_gaps: gaps,
    evidence_paths: [summaryPath],
  });
  ctl.touch();
  if (ok) {
    goal.certified = true;
    const completion = summary.trim() ? summary : completionReport(goal, (id) => artifactPath(ctl, goal, id));
    ctl.emit({ type: 'goal_certified', id: goal.id, summary: completion, iteration: goal.iteration, certified: true });
    ctl.emit({ type: 'goal_completion_summary', text: completion });
    ctl.transition('done', 'goal certified');
    ctl.emitWorkState();
  } else if (goal.iteration < goal.settings.maxIterations) {
    goal.iteration++;
    goal.feedback = `Verify failed (iteration ${goal.iteration}/${goal.settings.maxIterations}). Remaining gaps:\n${gaps.map((g) => `- ${g}`).join('\n')}`;
    goal.certified = false;
    dropPlan(goal);
    emitIteration(ctl, goal);
    ctl.transition('replanning', 'verify failed — replanning gaps');
    ctl.transition('planning', 'replan: writing delta plan');
    ctl.emitWorkState();
    next.replan(ctl);
  } else {
    ctl.fail(`verify budget exhausted after ${goal.settings.maxIterations} iteration(s); last gaps: ${gaps.join('; ')}`);
    ctl.emitWorkState();
  }
}

/** "Goal deploy complete — …" as upstream words it, by whether a step failed (or the validation could not run). */
export function followUpInfo(anyFailed: boolean): string {
  return anyFailed
    ? 'Goal deploy complete — some steps failed; continuing to follow-up turn…'
    : 'Goal deploy complete — starting follow-up turn…';
}

function verdict(ok: boolean, summary: string, evidencePaths: string[]): GoalVerdict {
  return { ok, summary, evidence_paths: evidencePaths, at: Date.now() };
}

function dropPlan(goal: Goal): void {
  goal.plan = undefined;
  goal.prompts = [];
}

function emitIteration(ctl: GoalController, goal: Goal): void {
  ctl.emit({
    type: 'goal_iteration',
    id: goal.id,
    iteration: goal.iteration,
    max_iterations: goal.settings.maxIterations,
    plan_revision: goal.planRevision,
    max_plan_revisions: goal.settings.maxPlanRevisions,
  });
}

function artifactPath(ctl: GoalController, goal: Goal, stepId: string): string {
  return stepArtifactPath(ctl.host.workspace, goal.id, stepId);
}

/**
 * `<goal artifacts>/SUMMARY.md` (upstream's `write_mission_summary`): the goal, the plan and its criteria, and every
 * step's full output; returns its workspace-relative path (the verify turn reads it). A failed write only goes to the log.
 */
async function writeMissionSummary(ctl: GoalController, goal: Goal): Promise<string> {
  const relative = relativeArtifactPath(goal.id, 'SUMMARY.md');
  const lines = [
    `# Mission summary: ${goal.settings.goal}`,
    `goal_id: ${goal.id}`,
    `iteration: ${goal.iteration}/${goal.settings.maxIterations}`,
  ];
  if (goal.plan) {
    lines.push('', '## Plan', goal.plan.summary);
    if (goal.plan.validation.length) lines.push('', '## Validation criteria', ...goal.plan.validation.map((v) => `- ${v}`));
  }
  lines.push('', '## Step evidence');
  for (const p of goal.prompts) {
    const path = artifactPath(ctl, goal, p.step_id);
    const body = await readFile(path, 'utf8').catch(() => p.summary ?? '(no step output)');
    lines.push(`### [${p.status}] ${p.title} (${p.agent})`, `path: ${relativeStepArtifactPath(goal.id, p.step_id)}`, '', body, '');
  }
  try {
    const absolute = join(ctl.host.workspace, relative);
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, lines.join('\n'));
  } catch (err) {
    ctl.host.log(`goal summary ${relative} not written: ${(err as Error).message}`);
  }
  return relative;
}
