import { goalPhaseActive, type GoalView } from '../../src/shared/goalState';
import type { SessionState, TranscriptItem } from '../../src/shared/sessionState';
import { codicon, h, replaceChildren } from '../infra/dom';
import type { HighlightQueue } from '../markdown/highlightQueue';
import type { StateChange } from '../state/store';
import { delegateContentClicks } from '../transcript/contentClicks';
import type { ItemContext } from '../transcript/itemView';
import { createItemView } from '../transcript/itemViews';
import { GoalHeader } from './goalHeader';
import { GoalRunIndex } from './goalRunIndex';
import { GoalRunsView } from './goalRunsView';
import { canStartGoal } from './goalModel';
import { PlanView } from './planView';
import { GoalStartForm } from './startForm';
import { GOAL_TEST_IDS } from './testIds';
import { OutcomeView } from './verdictsView';
import { WavesView } from './wavesView';
import { listSection } from './listSection';

const PLANNING_TEXT: Partial<Record<GoalView['phase'], string>> = {
  planning: 'The planner is writing the plan…',
  reviewing: 'The plan is under self-review…',
  replanning: 'Re-planning from the verifier’s gaps…',
};

/**
 * Goal mode's Control Center (its panel's own bundle, controlCenterApp.ts, fed the chat's snapshot and patch stream):
 * the goal's header, the plan under review, the deploy's waves with each worker's run, the verdicts and the summary,
 * and the start form when no goal is active. It renders `state.goal` only — what the client reduced from the core's
 * goal_* events — so it follows our core and upstream's alike.
 */
export class ControlCenter {
  readonly root: HTMLElement;
  private readonly header: GoalHeader;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private readonly plan: PlanView;
  private readonly waves: WavesView;
  private readonly otherRuns: GoalRunsView;
  private readonly outcome: OutcomeView;
  private readonly form: GoalStartForm;
  private readonly goalSection: HTMLElement;
  private readonly runs = new GoalRunIndex();
  private ticker: ReturnType<typeof setInterval> | undefined;
  private renderedError = '';
  private formFocused = false;

  constructor(ctx: ItemContext, highlighter: HighlightQueue) {
    this.header = new GoalHeader(ctx.post);
    this.status = h('div', { class: 'goal-status', role: 'status', hidden: true });
    this.error = h('div', { class: 'goal-error', role: 'alert', 'data-testid': GOAL_TEST_IDS.error, hidden: true });
    this.plan = new PlanView(ctx.post);
    const createView = (item: TranscriptItem) => createItemView(item, ctx);
    this.waves = new WavesView(ctx, createView);
    this.otherRuns = new GoalRunsView(ctx, createView);
    this.outcome = new OutcomeView(highlighter);
    this.form = new GoalStartForm(ctx.post);
    this.goalSection = h(
      'div',
      { class: 'goal-current', hidden: true },
      this.header.root,
      this.status,
      this.error,
      this.plan.root,
      this.waves.root,
      this.otherRuns.root,
      this.outcome.root,
    );
    this.root = h(
      'main',
      { class: 'goal-control-center', 'data-testid': GOAL_TEST_IDS.controlCenter, 'aria-label': 'Goal Control Center', tabindex: '-1' },
      this.goalSection,
      this.form.root,
    );
    // Links and file chips open in the editor, code blocks copy or insert: as in the transcript.
    delegateContentClicks(this.root, ctx.post);
  }

  update(state: SessionState, change: StateChange): void {
    // A worker's streamed items are not in `change.items` (no card in the main flow claims them): every frame updates
    // the runs' rows, each of which re-renders only what changed in its run. The rest shows the goal and the session's
    // top-level state, which a frame of streamed text alone never changes.
    this.runs.update(state.items, change.reset);
    const goal = state.goal;
    if (change.reset || change.length || change.keys.size > 0) this.showState(state);
    if (goal) {
      this.waves.update(goal, state, this.runs);
      this.otherRuns.update(goal, state, this.runs);
    }
  }

  dispose(): void {
    this.setTicking(false);
    this.waves.dispose();
    this.otherRuns.dispose();
  }

  private showState(state: SessionState): void {
    const goal = state.goal;
    this.goalSection.hidden = !goal;
    if (goal) this.showGoal(goal, state.items.length);
    this.form.root.hidden = !canStartGoal(goal);
    if (!this.form.root.hidden) this.form.update(state);
    if (!this.form.root.hidden && !this.formFocused) {
      // The panel opened to start a goal: the goal text takes the keyboard (once; later renders leave focus alone).
      this.formFocused = true;
      this.form.focus();
    }
    this.setTicking(goal !== undefined && goalPhaseActive(goal.phase));
  }

  private showGoal(goal: GoalView, itemCount: number): void {
    this.header.update(goal);
    const planning = PLANNING_TEXT[goal.phase] ?? '';
    this.status.hidden = planning === '';
    if (this.status.dataset.text !== planning) {
      this.status.dataset.text = planning;
      replaceChildren(this.status, codicon('loading', 'codicon-modifier-spin'), ` ${planning}`);
    }
    this.renderError(goal);
    this.plan.update(goal, itemCount);
    this.outcome.update(goal);
  }

  /** The goal's error, and what the verifier still misses when it gave up. */
  private renderError(goal: GoalView): void {
    const gaps = goal.certified ? [] : goal.remainingGaps;
    const key = JSON.stringify([goal.error ?? '', gaps]);
    if (key === this.renderedError) return;
    this.renderedError = key;
    this.error.hidden = !goal.error && gaps.length === 0;
    replaceChildren(this.error, goal.error ? h('div', {}, codicon('error'), ` ${goal.error}`) : null, listSection('Remaining gaps', gaps));
  }

  private setTicking(on: boolean): void {
    if (on === (this.ticker !== undefined)) return;
    if (on) {
      this.ticker = setInterval(() => {
        this.header.tick();
        this.waves.tick();
        this.otherRuns.tick();
      }, 1000);
    } else {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
