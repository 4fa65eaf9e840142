import type { SubagentItem, ToolItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { h } from '../infra/dom';
import type { ItemContext } from '../transcript/itemView';
import { isRowRun, rowOrder } from './subagentModel';
import { SubagentRowView, type ChildViewFactory } from './subagentRow';

/**
 * The child runs of one `subagent` call, under its tool card: a row per run, in start order, a nested run indented
 * right under the run that started it. It finds its runs through the store's SubagentIndex, and is updated with its card, which the store
 * re-renders for every patch to one of its children: once per frame at most, like the rest of the transcript.
 */
export class SubagentPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly rows = new Map<string, SubagentRowView>();
  private order = '';
  /** Ticks the running rows' elapsed time once a second; only while some run is going (an idle chat has no timer). */
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly ctx: ItemContext,
    private readonly createView: ChildViewFactory,
  ) {
    this.list = h('ul', { class: 'subagent-rows', 'aria-label': 'Subagent runs' });
    this.root = h('div', { class: 'subagent-panel', 'data-testid': TEST_IDS.subagentPanel, hidden: true }, this.list);
  }

  update(card: ToolItem): void {
    const state = this.ctx.state();
    const runs = rowOrder(
      this.ctx.subagents
        .runsOf(card.id)
        .map((i) => state.items[i])
        .filter((item): item is SubagentItem => item?.kind === 'subagent' && isRowRun(item)),
    );
    this.root.hidden = runs.length === 0;
    const order = runs.map((r) => r.id).join('\0');
    if (order !== this.order) {
      this.order = order;
      const wanted = new Set(runs.map((r) => r.id));
      for (const [id, row] of this.rows) {
        if (wanted.has(id)) continue;
        row.dispose();
        this.rows.delete(id);
      }
      for (const run of runs) if (!this.rows.has(run.id)) this.rows.set(run.id, new SubagentRowView(this.ctx, this.createView));
      this.list.replaceChildren(...runs.map((r) => this.rows.get(r.id)!.root));
    }
    for (const run of runs) this.rows.get(run.id)!.update(run, this.ctx.subagents.itemsOf(run.id), this.ctx.subagents.depthOf(run.id));
    this.setTicking(runs.some((r) => r.state === 'running'));
  }

  dispose(): void {
    this.setTicking(false);
    for (const row of this.rows.values()) row.dispose();
    this.rows.clear();
  }

  private setTicking(on: boolean): void {
    if (on === (this.ticker !== undefined)) return;
    if (on) {
      this.ticker = setInterval(() => {
        for (const row of this.rows.values()) row.tick();
      }, 1000);
    } else {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}
