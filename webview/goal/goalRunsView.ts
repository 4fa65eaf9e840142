import type { GoalView } from '../../src/shared/goalState';
import type { SessionState, SubagentItem } from '../../src/shared/sessionState';
import { h } from '../infra/dom';
import { SubagentRowView, type ChildViewFactory } from '../subagents/subagentRow';
import type { ItemContext } from '../transcript/itemView';
import type { GoalRunIndex } from './goalRunIndex';
import { GOAL_TEST_IDS } from './testIds';

/**
 * The goal's runs that are no plan step's worker — upstream's speculative scout, the classic validation reviewer — as
 * subagent rows, so every run the goal started can be followed somewhere (the chat shows none of them).
 */
export class GoalRunsView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly rows = new Map<string, SubagentRowView>();
  private order = '';

  constructor(
    private readonly ctx: ItemContext,
    private readonly createView: ChildViewFactory,
  ) {
    this.list = h('ul', { class: 'subagent-rows', 'aria-label': 'Other runs of the goal' });
    this.root = h(
      'section',
      { class: 'goal-runs', 'data-testid': GOAL_TEST_IDS.otherRuns, hidden: true },
      h('h2', { class: 'goal-section-title' }, 'Other runs'),
      this.list,
    );
  }

  update(goal: GoalView, state: SessionState, runs: GoalRunIndex): void {
    const stepRuns = new Set((goal.plan?.steps ?? []).map((s) => s.runId).filter((id) => id !== undefined));
    const others = runs
      .runsUnder(goal.id)
      .map((i) => state.items[i])
      .filter((item): item is SubagentItem => item?.kind === 'subagent' && item.mode === 'single' && !stepRuns.has(item.id));
    this.root.hidden = others.length === 0;
    const order = others.map((r) => r.id).join('\0');
    if (order !== this.order) {
      this.order = order;
      for (const [id, row] of this.rows) {
        if (others.some((r) => r.id === id)) continue;
        row.dispose();
        this.rows.delete(id);
      }
      for (const run of others) if (!this.rows.has(run.id)) this.rows.set(run.id, new SubagentRowView(this.ctx, this.createView));
      this.list.replaceChildren(...others.map((r) => this.rows.get(r.id)!.root));
    }
    for (const run of others) this.rows.get(run.id)!.update(run, runs.itemsOf(run.id), 0);
  }

  tick(): void {
    for (const row of this.rows.values()) row.tick();
  }

  dispose(): void {
    for (const row of this.rows.values()) row.dispose();
    this.rows.clear();
  }
}
