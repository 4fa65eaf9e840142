import type { GoalPlanView, GoalStepView, GoalView } from '../../src/shared/goalState';
import type { WebviewToHost } from '../../src/shared/webviewMessages';
import { badge, codicon, focusWhenRendered, h, replaceChildren, setDisabled, vscodeButton } from '../infra/dom';
import { GOAL_TEST_IDS } from './testIds';
import { listSection } from './listSection';

/**
 * The plan: its summary, the steps (title, agent, model, what each depends on, its parallel group; the task text
 * collapsible), the risks and the validation criteria. While it waits for approval (plan_ready) it is open with Approve,
 * Revise (a feedback box; Ctrl/Cmd+Enter or Send posts it, never blank) and Cancel; later it folds away above the waves.
 */
export class PlanView {
  readonly root: HTMLElement;
  private readonly details: HTMLDetailsElement;
  private readonly heading: HTMLElement;
  private readonly content: HTMLElement;
  private readonly actions: HTMLElement;
  private readonly feedbackBox: HTMLElement;
  private readonly feedback: HTMLTextAreaElement;
  private readonly approveButton: HTMLElement;
  private readonly reviseButton: HTMLElement;
  private readonly cancelButton: HTMLElement;
  private readonly sendButton: HTMLElement;
  private rendered = '';
  private reviewing = false;
  /** The plan version an action was sent for: the buttons stay disabled until the core answers with another state. */
  private sentFor = '';
  private planKey = '';

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.heading = h('summary', { class: 'goal-plan-heading' });
    this.content = h('div', { class: 'goal-plan-content' });
    this.feedback = h('textarea', {
      class: 'text-input goal-textarea',
      rows: 3,
      placeholder: 'What should the planner change? (Ctrl+Enter sends)',
      'aria-label': 'Revision feedback for the planner',
      'data-testid': GOAL_TEST_IDS.feedback,
    });
    this.feedback.addEventListener('input', () => this.refreshButtons());
    this.feedback.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.sendRevision();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.closeFeedback();
      }
    });
    this.sendButton = vscodeButton({
      label: 'Send revision',
      icon: 'send',
      testId: GOAL_TEST_IDS.sendRevision,
      onClick: () => this.sendRevision(),
    });
    const closeFeedback = vscodeButton({ label: 'Back', secondary: true, onClick: () => this.closeFeedback() });
    this.feedbackBox = h(
      'div',
      { class: 'goal-feedback', hidden: true },
      this.feedback,
      h('div', { class: 'goal-actions' }, this.sendButton, closeFeedback),
    );
    this.approveButton = vscodeButton({
      label: 'Approve and deploy',
      icon: 'check',
      testId: GOAL_TEST_IDS.approve,
      onClick: () => this.act('approve'),
    });
    this.reviseButton = vscodeButton({
      label: 'Revise…',
      icon: 'edit',
      secondary: true,
      testId: GOAL_TEST_IDS.revise,
      onClick: () => this.openFeedback(),
    });
    this.cancelButton = vscodeButton({ label: 'Cancel goal', icon: 'close', secondary: true, onClick: () => this.act('cancel') });
    this.actions = h(
      'div',
      { class: 'goal-plan-actions', role: 'group', 'aria-label': 'Plan review' },
      h('div', { class: 'goal-actions' }, this.approveButton, this.reviseButton, this.cancelButton),
      this.feedbackBox,
    );
    this.details = h('details', { class: 'goal-plan-details' }, this.heading, this.content);
    this.root = h(
      'section',
      { class: 'goal-plan', 'data-testid': GOAL_TEST_IDS.plan, 'aria-label': 'Plan', hidden: true },
      this.details,
      this.actions,
    );
  }

  /** `itemCount` (the transcript's length): an error the core answers an action with is a new item, and unlocks the buttons. */
  update(goal: GoalView, itemCount: number): void {
    const plan = goal.plan;
    this.root.hidden = !plan;
    if (!plan) return;
    const reviewing = goal.phase === 'plan_ready';
    if (reviewing !== this.reviewing) {
      this.reviewing = reviewing;
      this.details.open = reviewing;
      this.actions.hidden = !reviewing;
      if (!reviewing) this.closeFeedback();
    }
    this.actions.hidden = !reviewing;
    const key = `${goal.id}\0${goal.phase}\0${plan.version}\0${itemCount}`;
    if (this.sentFor && this.sentFor !== key) this.sentFor = '';
    this.planKey = key;
    // Step statuses change with every goal_state; the plan's own text does not (and re-rendering would fold open tasks).
    const content = JSON.stringify([plan.number, plan.summary, plan.risks, plan.validation, plan.steps.map(stepContent)]);
    if (content !== this.rendered) {
      this.rendered = content;
      this.render(plan);
    }
    this.refreshButtons();
  }

  private render(plan: GoalPlanView): void {
    replaceChildren(
      this.heading,
      h('span', { class: 'goal-section-title' }, 'Plan'),
      h('span', { class: 'goal-hint' }, ` · ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} · version ${plan.number}`),
    );
    replaceChildren(
      this.content,
      plan.summary ? h('p', { class: 'goal-plan-summary' }, plan.summary) : null,
      h('ol', { class: 'goal-plan-steps', 'aria-label': 'Plan steps' }, ...plan.steps.map(stepItem)),
      listSection('Risks', plan.risks, 'warning'),
      listSection('Validation', plan.validation, 'checklist'),
    );
  }

  private act(action: 'approve' | 'cancel'): void {
    if (this.sentFor) return;
    this.sentFor = this.planKey;
    this.refreshButtons();
    this.post({ type: 'goalAction', action });
  }

  private openFeedback(): void {
    this.feedbackBox.hidden = false;
    this.refreshButtons();
    this.feedback.focus();
  }

  private closeFeedback(): void {
    if (this.feedbackBox.hidden) return;
    this.feedbackBox.hidden = true;
    if (this.reviewing) focusWhenRendered(this.reviseButton);
  }

  private sendRevision(): void {
    const feedback = this.feedback.value.trim();
    if (!feedback || this.sentFor) return;
    this.sentFor = this.planKey;
    this.post({ type: 'goalAction', action: 'revise', feedback });
    this.feedback.value = '';
    this.feedbackBox.hidden = true;
    this.refreshButtons();
  }

  private refreshButtons(): void {
    const sent = this.sentFor !== '';
    for (const button of [this.approveButton, this.reviseButton, this.cancelButton]) setDisabled(button, sent);
    setDisabled(this.sendButton, sent || this.feedback.value.trim() === '');
  }
}

function stepContent(s: GoalStepView): unknown[] {
  return [s.id, s.title, s.agent, s.model, s.dependsOn, s.parallelGroup, s.task];
}

function stepItem(step: GoalStepView): HTMLElement {
  return h(
    'li',
    { class: 'goal-plan-step', 'data-testid': GOAL_TEST_IDS.planStep, 'data-step-id': step.id },
    h(
      'div',
      { class: 'goal-step-line' },
      h('span', { class: 'goal-step-title' }, step.title),
      badge(step.agent, 'busy'),
      step.model ? h('span', { class: 'goal-step-model', title: `Model: ${step.model}` }, step.model) : null,
      h('span', { class: 'goal-step-id', title: 'Step id' }, `#${step.id}`),
    ),
    h(
      'div',
      { class: 'goal-step-meta' },
      step.dependsOn.length > 0 ? h('span', {}, codicon('arrow-right'), ` after ${step.dependsOn.map((d) => `#${d}`).join(', ')}`) : null,
      step.parallelGroup ? h('span', {}, codicon('split-horizontal'), ` group ${step.parallelGroup}`) : null,
    ),
    h('details', { class: 'goal-step-task' }, h('summary', {}, 'Task'), h('div', { class: 'goal-task-text' }, step.task)),
  );
}
