import type { GoalStepView, GoalView } from '../../src/shared/goalState';
import type { ApprovalItem, SessionState } from '../../src/shared/sessionState';
import { ApprovalCardView } from '../approvals/approvalCard';
import { badge, codicon, h, replaceChildren } from '../infra/dom';
import { formatElapsed } from '../subagents/subagentModel';
import { SubagentRowView, type ChildViewFactory } from '../subagents/subagentRow';
import type { ItemContext } from '../transcript/itemView';
import type { GoalRunIndex } from './goalRunIndex';
import { STEP_ICONS, STEP_STATUS_TEXT, goalWaves, stepProgress } from './goalModel';
import { GOAL_TEST_IDS } from './testIds';

const DEPLOY_PHASES: ReadonlySet<GoalView['phase']> = new Set(['deploying', 'running', 'synthesizing', 'verifying']);
const STEP_TONES: Record<GoalStepView['status'], string> = {
  pending: 'muted',
  running: 'busy',
  done: 'ok',
  failed: 'error',
  skipped: 'muted',
};

/**
 * The deploy: the plan's steps in waves (topological levels of `dependsOn`, as the core dispatches them), each step a
 * row with its status, agent, model and elapsed time; once its worker started, the row holds that worker's run — the
 * chat's own subagent row (its streamed messages and tool cards when expanded) and its pending approvals.
 */
export class WavesView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly progress: HTMLElement;
  private readonly rows = new Map<string, StepRowView>();
  private readonly waveEls = new Map<number, { root: HTMLElement; head: HTMLElement; steps: HTMLElement }>();
  private shape = '';
  private plan: GoalView['plan'];
  private waves: GoalStepView[][] = [];

  constructor(
    private readonly ctx: ItemContext,
    private readonly createView: ChildViewFactory,
  ) {
    this.progress = h('div', { class: 'goal-wave-progress', role: 'status' });
    this.list = h('div', { class: 'goal-wave-list' });
    this.root = h(
      'section',
      { class: 'goal-waves', 'data-testid': GOAL_TEST_IDS.waves, 'aria-label': 'Deploy', hidden: true },
      h('h2', { class: 'goal-section-title' }, 'Deploy'),
      this.progress,
      this.list,
    );
  }

  update(goal: GoalView, state: SessionState, runs: GoalRunIndex): void {
    const steps = goal.plan?.steps ?? [];
    const show = steps.length > 0 && (DEPLOY_PHASES.has(goal.phase) || steps.some((s) => s.status !== 'pending' || s.runId));
    this.root.hidden = !show;
    if (!show) return;
    // Every frame a worker streams comes here; the waves change only with the plan (a new object per goal_state).
    if (goal.plan !== this.plan) {
      this.plan = goal.plan;
      this.waves = goalWaves(steps);
    }
    const waves = this.waves;
    this.reshape(waves);
    const all = stepProgress(steps);
    const wave = goal.wave;
    const progressText = `${wave ? `Wave ${wave.index} of ${waves.length} · ` : ''}${all.finished}/${all.total} steps finished${all.failed ? ` · ${all.failed} failed` : ''}`;
    if (this.progress.textContent !== progressText) this.progress.textContent = progressText;
    waves.forEach((wave, i) => {
      const el = this.waveEls.get(i)!;
      const p = stepProgress(wave);
      const current = goal.wave?.index === i + 1 && DEPLOY_PHASES.has(goal.phase);
      el.root.classList.toggle('current', current);
      el.root.dataset.current = String(current);
      const head = `Wave ${i + 1}\0${p.finished}/${p.total}\0${current}`;
      if (el.head.dataset.key !== head) {
        el.head.dataset.key = head;
        replaceChildren(
          el.head,
          h('span', { class: 'goal-wave-title' }, `Wave ${i + 1}`),
          h('span', { class: 'goal-hint' }, ` · ${p.finished}/${p.total} finished${wave.length > 1 ? ' · in parallel' : ''}`),
          current ? badge('Current', 'busy') : null,
        );
      }
      for (const step of wave) this.rows.get(step.id)!.update(step, state, runs);
    });
  }

  /** Once a second while the goal is active: running workers' elapsed times count on. */
  tick(): void {
    for (const row of this.rows.values()) row.tick();
  }

  dispose(): void {
    for (const row of this.rows.values()) row.dispose();
    this.rows.clear();
  }

  /** A new plan (or one whose dependencies changed) lays the waves out again; the rows of steps it kept stay. */
  private reshape(waves: GoalStepView[][]): void {
    const shape = waves.map((w) => w.map((s) => s.id).join('\0')).join('\n');
    if (shape === this.shape) return;
    this.shape = shape;
    const wanted = new Set(waves.flat().map((s) => s.id));
    for (const [id, row] of this.rows) {
      if (wanted.has(id)) continue;
      row.dispose();
      this.rows.delete(id);
    }
    this.waveEls.clear();
    const sections = waves.map((wave, i) => {
      const head = h('div', { class: 'goal-wave-head' });
      const stepsEl = h('ul', { class: 'goal-wave-steps', 'aria-label': `Wave ${i + 1} steps` });
      for (const step of wave) {
        let row = this.rows.get(step.id);
        if (!row) this.rows.set(step.id, (row = new StepRowView(this.ctx, this.createView)));
        stepsEl.appendChild(row.root);
      }
      const root = h('div', { class: 'goal-wave', 'data-testid': GOAL_TEST_IDS.wave, 'data-wave': i + 1 }, head, stepsEl);
      this.waveEls.set(i, { root, head, steps: stepsEl });
      return root;
    });
    this.list.replaceChildren(...sections);
  }
}

/** One step: its line, the core's summary of it once finished, its worker's run and that run's pending approvals. */
class StepRowView {
  readonly root: HTMLElement;
  private readonly line: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly runList: HTMLElement;
  private readonly approvalsEl: HTMLElement;
  private readonly approvals = new Map<string, ApprovalCardView>();
  private runRow: SubagentRowView | undefined;
  private renderedLine = '';

  constructor(
    private readonly ctx: ItemContext,
    private readonly createView: ChildViewFactory,
  ) {
    this.line = h('div', { class: 'goal-step-line' });
    this.summary = h('div', { class: 'goal-step-summary', hidden: true });
    this.runList = h('ul', { class: 'subagent-rows goal-step-run', 'aria-label': 'Worker run', hidden: true });
    this.approvalsEl = h('div', { class: 'goal-step-approvals', hidden: true });
    this.root = h('li', { class: 'goal-step', 'data-testid': GOAL_TEST_IDS.step }, this.line, this.summary, this.approvalsEl, this.runList);
  }

  update(step: GoalStepView, state: SessionState, runs: GoalRunIndex): void {
    this.root.dataset.stepId = step.id;
    this.root.dataset.status = step.status;
    const run = step.runId ? runs.run(state.items, step.runId) : undefined;
    this.renderLine(step, run ? formatElapsed(run.elapsedMs) : '');
    const summary = step.summary ?? '';
    this.summary.hidden = summary === '' || (run?.summary ?? '') === summary;
    if (this.summary.textContent !== summary) this.summary.textContent = summary;
    this.runList.hidden = !run;
    if (run) {
      if (!this.runRow) {
        this.runRow = new SubagentRowView(this.ctx, this.createView);
        this.runList.appendChild(this.runRow.root);
      }
      this.runRow.update(run, runs.itemsOf(run.id), 0);
    }
    this.renderApprovals(run ? runs.approvalsOf(run.id) : [], state);
  }

  tick(): void {
    this.runRow?.tick();
  }

  dispose(): void {
    this.runRow?.dispose();
    this.approvalsEl.replaceChildren();
    this.approvals.clear();
  }

  private renderLine(step: GoalStepView, elapsed: string): void {
    const key = `${step.status}\0${step.title}\0${step.agent}\0${step.model ?? ''}\0${elapsed}`;
    if (key === this.renderedLine) return;
    this.renderedLine = key;
    this.line.setAttribute('aria-label', `${step.title} (${step.agent}): ${STEP_STATUS_TEXT[step.status]}${elapsed ? `, ${elapsed}` : ''}`);
    replaceChildren(
      this.line,
      codicon(STEP_ICONS[step.status], 'goal-step-icon'),
      h('span', { class: 'goal-step-title' }, step.title),
      h('span', { class: 'goal-step-agent' }, step.agent),
      step.model ? h('span', { class: 'goal-step-model', title: `Model: ${step.model}` }, step.model) : null,
      elapsed ? h('span', { class: 'goal-step-elapsed', title: 'Elapsed' }, elapsed) : null,
      badge(STEP_STATUS_TEXT[step.status], STEP_TONES[step.status]),
    );
  }

  /** A worker's pending approvals, answerable here as in the chat (the same ApprovalCardView; the decision patches both). */
  private renderApprovals(indexes: readonly number[], state: SessionState): void {
    const pending = indexes.map((i) => state.items[i]).filter((a): a is ApprovalItem => a?.kind === 'approval' && a.state === 'pending');
    const wanted = new Set(pending.map((a) => a.id));
    for (const [id, card] of this.approvals) {
      if (wanted.has(id)) continue;
      card.root.remove();
      this.approvals.delete(id);
    }
    for (const approval of pending) {
      let card = this.approvals.get(approval.id);
      if (!card) {
        this.approvals.set(approval.id, (card = new ApprovalCardView(this.ctx)));
        this.approvalsEl.appendChild(card.root);
      }
      card.update(approval);
    }
    this.approvalsEl.hidden = pending.length === 0;
  }
}
