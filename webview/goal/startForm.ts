import { UI_CAPABILITIES, type SessionState } from '../../src/shared/sessionState';
import type { WebviewToHost } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';
import { h, setDisabled, vscodeButton } from '../infra/dom';
import { GOAL_DEFAULTS, GOAL_LIMITS, MIN_GOAL_CHARS, parseBoundedInt } from './goalModel';
import { GOAL_TEST_IDS } from './testIds';

type GoalStart = Extract<WebviewToHost, { type: 'goalStart' }>;

/**
 * The form that starts a goal (start_goal): the goal, whether to review the plan before it deploys (on by default, so
 * auto_deploy false), CEO mode, concurrency and max tasks (empty = the core's defaults, shown as placeholders). Start is
 * disabled with the reason shown when the core lacks goal mode, a turn is running, or a field would be refused.
 */
export class GoalStartForm {
  readonly root: HTMLElement;
  private readonly goalInput: HTMLTextAreaElement;
  private readonly review: HTMLInputElement;
  private readonly ceo: HTMLInputElement;
  private readonly concurrency: HTMLInputElement;
  private readonly maxTasks: HTMLInputElement;
  private readonly reason: HTMLElement;
  private readonly startButton: HTMLElement;
  private state: SessionState | undefined;
  /** Set when Start was pressed, until the core answers (a new goal, or an error item in the chat): no double starts. */
  private sent: { goalId: string; items: number } | undefined;

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.goalInput = h('textarea', {
      id: 'goal-form-goal',
      class: 'text-input goal-textarea',
      rows: 4,
      placeholder: 'Describe the outcome you want, e.g. "Add a --json flag to the CLI, with tests"',
      'data-testid': GOAL_TEST_IDS.formGoal,
    });
    this.review = h('input', { type: 'checkbox', checked: true, 'data-testid': GOAL_TEST_IDS.formReview });
    this.ceo = h('input', { type: 'checkbox', 'data-testid': GOAL_TEST_IDS.formCeo });
    this.concurrency = numberInput(
      'goal-form-concurrency',
      GOAL_LIMITS.concurrency,
      GOAL_DEFAULTS.concurrency,
      GOAL_TEST_IDS.formConcurrency,
    );
    this.maxTasks = numberInput('goal-form-max-tasks', GOAL_LIMITS.maxTasks, GOAL_DEFAULTS.maxTasks, GOAL_TEST_IDS.formMaxTasks);
    this.reason = h('div', { class: 'goal-form-reason', role: 'status', 'data-testid': GOAL_TEST_IDS.formReason });
    this.startButton = vscodeButton({ label: 'Start goal', icon: 'rocket', testId: GOAL_TEST_IDS.start, onClick: () => this.submit() });
    for (const input of [this.goalInput, this.concurrency, this.maxTasks]) input.addEventListener('input', () => this.refresh());
    this.goalInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.submit();
      }
    });
    this.root = h(
      'section',
      { class: 'goal-form', 'data-testid': GOAL_TEST_IDS.form, 'aria-label': 'Start a goal' },
      h('h2', { class: 'goal-section-title' }, 'Start a goal'),
      h('label', { class: 'goal-label', for: 'goal-form-goal' }, 'Goal'),
      this.goalInput,
      h(
        'label',
        { class: 'goal-check' },
        this.review,
        h('span', {}, 'Review the plan before deploying', h('span', { class: 'goal-hint' }, ' — approve, revise or cancel it first')),
      ),
      h(
        'label',
        { class: 'goal-check' },
        this.ceo,
        h('span', {}, 'Verify and re-plan until certified', h('span', { class: 'goal-hint' }, ' — CEO mode: self-review, verify, iterate')),
      ),
      h(
        'div',
        { class: 'goal-numbers' },
        h(
          'label',
          { class: 'goal-label', for: 'goal-form-concurrency' },
          'Concurrency',
          h('span', { class: 'goal-hint' }, ' (1–32, default 4)'),
        ),
        this.concurrency,
        h(
          'label',
          { class: 'goal-label', for: 'goal-form-max-tasks' },
          'Max tasks',
          h('span', { class: 'goal-hint' }, ' (1–64, default 64)'),
        ),
        this.maxTasks,
      ),
      h('div', { class: 'goal-actions' }, this.startButton, this.reason),
    );
  }

  update(state: SessionState): void {
    this.state = state;
    if (this.sent && (this.sent.goalId !== (state.goal?.id ?? '') || this.sent.items !== state.items.length)) this.sent = undefined;
    this.refresh();
  }

  focus(): void {
    this.goalInput.focus();
  }

  /** Why Start is disabled, or undefined when the goal can start. */
  private blocker(): string | undefined {
    const state = this.state;
    if (!state) return 'Waiting for the session…';
    if (!supports(state, UI_CAPABILITIES.goal)) return `Goal mode is not available: this core (${state.core.kind}) does not support it.`;
    if (state.core.status === 'crashed' || state.core.status === 'restarting') return 'The core is not running; restart it first.';
    if (state.run.status !== 'idle') return 'A turn is running: a goal starts once it ends.';
    if (this.sent) return 'Starting…';
    if (this.goalInput.value.trim().length < MIN_GOAL_CHARS) return 'Describe the goal (at least 4 characters).';
    const c = parseBoundedInt(this.concurrency.value, GOAL_LIMITS.concurrency);
    const m = parseBoundedInt(this.maxTasks.value, GOAL_LIMITS.maxTasks);
    if (Number.isNaN(c)) return 'Concurrency must be a whole number from 1 to 32.';
    if (Number.isNaN(m)) return 'Max tasks must be a whole number from 1 to 64.';
    const effective = { c: c ?? GOAL_DEFAULTS.concurrency, m: m ?? GOAL_DEFAULTS.maxTasks };
    if (effective.c > effective.m) return `Concurrency (${effective.c}) cannot exceed max tasks (${effective.m}).`;
    return undefined;
  }

  private refresh(): void {
    const why = this.blocker();
    setDisabled(this.startButton, why !== undefined);
    const text = why ?? '';
    if (this.reason.textContent !== text) this.reason.textContent = text;
  }

  private submit(): void {
    if (this.blocker() !== undefined || !this.state) return;
    const message: GoalStart = {
      type: 'goalStart',
      goal: this.goalInput.value.trim(),
      autoDeploy: !this.review.checked,
      ceoMode: this.ceo.checked,
    };
    const c = parseBoundedInt(this.concurrency.value, GOAL_LIMITS.concurrency);
    const m = parseBoundedInt(this.maxTasks.value, GOAL_LIMITS.maxTasks);
    if (c !== undefined) message.concurrency = c;
    if (m !== undefined) message.maxTasks = m;
    this.post(message);
    this.sent = { goalId: this.state.goal?.id ?? '', items: this.state.items.length };
    this.refresh();
  }
}

function numberInput(id: string, limits: { min: number; max: number }, fallback: number, testId: string): HTMLInputElement {
  return h('input', {
    id,
    type: 'number',
    class: 'text-input goal-number',
    min: limits.min,
    max: limits.max,
    step: 1,
    placeholder: String(fallback),
    inputmode: 'numeric',
    'data-testid': testId,
  });
}
