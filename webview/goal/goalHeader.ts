import { formatUsd } from '../../src/shared/costFormat';
import { goalPhaseActive, type GoalView } from '../../src/shared/goalState';
import type { WebviewToHost } from '../../src/shared/webviewMessages';
import { badge, codicon, h, iconButton, replaceChildren, setDisabled, vscodeButton } from '../infra/dom';
import { PHASE_TEXT, formatGoalElapsed, phaseTone } from './goalModel';
import { GOAL_TEST_IDS } from './testIds';

const PRE_DEPLOY: ReadonlySet<GoalView['phase']> = new Set(['planning', 'reviewing', 'plan_ready', 'replanning']);

/**
 * The goal at a glance: its text, the phase, the mode, iteration and plan revision against their budgets, concurrency,
 * the core's last phase message and the elapsed time; Cancel goal while it is active, and a refresh (goal_status).
 */
export class GoalHeader {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private readonly elapsed: HTMLElement;
  private readonly cancelButton: HTMLElement;
  private goal: GoalView | undefined;
  private rendered = '';
  private cancelSent = '';

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.body = h('div', { class: 'goal-header-body' });
    this.elapsed = h('span', { class: 'goal-elapsed', title: 'Elapsed' });
    this.cancelButton = vscodeButton({
      label: 'Cancel goal',
      icon: 'stop-circle',
      secondary: true,
      testId: GOAL_TEST_IDS.cancel,
      onClick: () => this.cancel(),
    });
    const refresh = iconButton('refresh', 'Refresh the goal from the core', () => this.post({ type: 'goalAction', action: 'refresh' }));
    this.root = h(
      'header',
      { class: 'goal-header', 'data-testid': GOAL_TEST_IDS.header, 'aria-label': 'Goal' },
      this.body,
      h('div', { class: 'goal-header-actions' }, this.elapsed, refresh, this.cancelButton),
    );
  }

  update(goal: GoalView): void {
    this.goal = goal;
    const active = goalPhaseActive(goal.phase);
    // While the plan waits for review its own Cancel sits with Approve and Revise.
    this.cancelButton.hidden = !active || goal.phase === 'plan_ready';
    if (this.cancelSent && this.cancelSent !== `${goal.id}\0${goal.phase}`) this.cancelSent = '';
    setDisabled(this.cancelButton, this.cancelSent !== '');
    this.tick();
    const key = JSON.stringify([
      goal.id,
      goal.goal,
      goal.phase,
      goal.mode,
      goal.iteration,
      goal.maxIterations,
      goal.planRevision,
      goal.maxPlanRevisions,
      goal.concurrency,
      goal.maxTasks,
      goal.message,
      goal.error,
      goal.certified,
      goal.autoDeploy,
      goal.costUsd,
      goal.costUnknown,
    ]);
    if (key === this.rendered) return;
    this.rendered = key;
    this.root.dataset.phase = goal.phase;
    const facts: (string | false)[] = [
      goal.mode === 'ceo' ? 'CEO mode' : 'Single pass',
      goal.mode === 'ceo' && `Iteration ${goal.iteration}/${goal.maxIterations}`,
      goal.mode === 'ceo' && `Plan revision ${goal.planRevision}/${goal.maxPlanRevisions}`,
      `Concurrency ${goal.concurrency}`,
      `Max tasks ${goal.maxTasks}`,
      // approve_goal_plan sets auto_deploy, so only a goal still to deploy says whether it waits for the review.
      !goal.autoDeploy && PRE_DEPLOY.has(goal.phase) && 'Waits for your approval before deploying',
      goal.costUsd !== undefined && `Cost ${formatUsd(goal.costUsd)}${goal.costUnknown ? '+' : ''}`,
    ];
    const phaseBadge = badge(goal.certified ? 'Certified' : PHASE_TEXT[goal.phase], goal.certified ? 'ok' : phaseTone(goal));
    phaseBadge.setAttribute('data-testid', GOAL_TEST_IDS.phase);
    phaseBadge.setAttribute('aria-label', `Phase: ${PHASE_TEXT[goal.phase]}`);
    replaceChildren(
      this.body,
      h('div', { class: 'goal-title-line' }, codicon('target'), h('h1', { class: 'goal-title' }, goal.goal), phaseBadge),
      h('div', { class: 'goal-facts' }, ...facts.filter((f): f is string => f !== false).map((f) => h('span', { class: 'goal-fact' }, f))),
      // A failure's message repeats its error, which the error line below shows already.
      goal.message && goal.message !== goal.error ? h('div', { class: 'goal-message', role: 'status' }, goal.message) : null,
    );
  }

  /** Once a second while the goal is active (the Control Center's timer), and on every update. */
  tick(): void {
    const goal = this.goal;
    if (!goal) return;
    const end = goal.endedAt ?? (goalPhaseActive(goal.phase) ? Date.now() : goal.startedAt);
    const text = formatGoalElapsed(Math.max(0, end - goal.startedAt));
    if (this.elapsed.textContent !== text) this.elapsed.textContent = text;
  }

  private cancel(): void {
    if (!this.goal || this.cancelSent) return;
    this.cancelSent = `${this.goal.id}\0${this.goal.phase}`;
    setDisabled(this.cancelButton, true);
    this.post({ type: 'goalAction', action: 'cancel' });
  }
}
