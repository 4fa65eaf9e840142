import type { SubagentItem, TranscriptItem } from '../../src/shared/sessionState';
import { formatUsd } from '../../src/shared/costFormat';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { badge, codicon, h, replaceChildren } from '../infra/dom';
import type { ItemContext, ItemView } from '../transcript/itemView';
import { CHILD_PAGE, formatElapsed, formatTokens, runStatusText, visibleChildItems } from './subagentModel';

/** The view of a child's reply or tool call inside an expanded row (the main flow's AssistantMessageView / ToolCardView). */
export type ChildViewFactory = (item: TranscriptItem) => ItemView;

/**
 * A running row's icon stands still: the card above it has the spinner, the row its phase badge and ticking time. Eight
 * spinners turning side by side cost the renderer's main thread a style recalc and a paint every frame (issue #14).
 */
const STATE_ICONS: Record<SubagentItem['state'], string> = {
  running: 'play-circle',
  completed: 'pass',
  failed: 'error',
  cancelled: 'circle-slash',
};
const STATE_TONES: Record<SubagentItem['state'], string> = { running: 'busy', completed: 'ok', failed: 'error', cancelled: 'muted' };

/**
 * One child run on its `subagent` card: agent, task, model, phase, tool count, elapsed time, tokens and state in the
 * summary line; the worktree it used and its final summary below. Expanded (a native <details>, so Enter and Space
 * toggle it), it shows the run's last CHILD_PAGE messages and tool cards through the main flow's own views, with
 * "Show earlier" for the rest; those views exist only while it is open.
 */
export class SubagentRowView {
  readonly root: HTMLElement;
  private readonly details: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly extra: HTMLElement;
  private readonly body: HTMLElement;
  private readonly earlier: HTMLButtonElement;
  private readonly list: HTMLElement;
  private readonly placeholder: HTMLElement;
  private readonly views = new Map<number, { key: string; view: ItemView; rendered: unknown; length: number }>();
  private item: SubagentItem | undefined;
  private childIndexes: readonly number[] = [];
  private renderedSummary = '';
  private renderedExtra = '';
  private shown = CHILD_PAGE;
  private elapsedEl: HTMLElement | undefined;
  /** The elapsed time the core last reported and when it arrived (performance.now()): a running row counts on from it. */
  private elapsedBase = { ms: 0, at: 0 };

  constructor(
    private readonly ctx: ItemContext,
    private readonly createView: ChildViewFactory,
  ) {
    this.summary = h('summary', { class: 'subagent-summary' });
    this.earlier = h('button', { type: 'button', class: 'subagent-earlier link-button' });
    this.earlier.addEventListener('click', () => {
      this.shown += CHILD_PAGE;
      this.renderBody();
    });
    this.list = h('div', { class: 'subagent-items' });
    this.placeholder = h('div', { class: 'subagent-empty' }, 'No messages yet.');
    this.body = h('div', { class: 'subagent-body' }, this.earlier, this.placeholder, this.list);
    this.details = h('details', { class: 'subagent-details' }, this.summary, this.body);
    this.extra = h('div', { class: 'subagent-extra' });
    this.root = h('li', { class: 'subagent-row', 'data-testid': TEST_IDS.subagentRow }, this.details, this.extra);
    this.details.addEventListener('toggle', () => {
      if (!this.item) return;
      if (this.details.open !== (this.ctx.ui.expandedChoice(this.key) ?? false)) this.ctx.ui.setExpanded(this.key, this.details.open);
      if (this.details.open) this.renderBody();
      else this.dropBody();
    });
  }

  private get key(): string {
    return `subagent:${this.item?.id ?? ''}`;
  }

  update(item: SubagentItem, childIndexes: readonly number[], depth: number): void {
    this.item = item;
    this.childIndexes = childIndexes;
    this.root.dataset.runId = item.id;
    this.root.dataset.state = item.state;
    this.root.dataset.phase = item.phase;
    this.root.classList.toggle('nested', depth > 0);
    if (depth > 0) this.root.dataset.depth = String(Math.min(depth, 4));
    const open = this.ctx.ui.expandedChoice(this.key) ?? false;
    if (this.details.open !== open) this.details.open = open;
    if (item.elapsedMs !== this.elapsedBase.ms || this.elapsedBase.at === 0)
      this.elapsedBase = { ms: item.elapsedMs, at: performance.now() };
    this.renderSummary(item);
    this.renderExtra(item);
    if (this.details.open) this.renderBody();
  }

  dispose(): void {
    this.dropBody();
  }

  get running(): boolean {
    return this.item?.state === 'running';
  }

  /** Once a second while the run is going (SubagentPanel's timer): the elapsed time counts on between progress events. */
  tick(): void {
    if (!this.item || !this.running || !this.elapsedEl) return;
    const text = formatElapsed(this.elapsedNow(this.item));
    if (this.elapsedEl.textContent !== text) this.elapsedEl.textContent = text;
  }

  private elapsedNow(item: SubagentItem): number {
    if (item.state !== 'running') return item.elapsedMs;
    return this.elapsedBase.ms + Math.max(0, performance.now() - this.elapsedBase.at);
  }

  private renderSummary(item: SubagentItem): void {
    const key = `${item.state}\0${item.phase}\0${item.tool ?? ''}\0${item.toolCount}\0${item.tokensIn}\0${item.tokensOut}\0${item.elapsedMs}\0${item.model ?? ''}\0${item.task}\0${item.agent}\0${item.costUsd}`;
    if (key === this.renderedSummary) return;
    this.renderedSummary = key;
    const icon = codicon(STATE_ICONS[item.state]);
    const phase =
      item.state === 'running' && item.phase === 'tool' && item.tool ? `${runStatusText(item)}: ${item.tool}` : runStatusText(item);
    const tokens = `${formatTokens(item.tokensIn)}↑ ${formatTokens(item.tokensOut)}↓`;
    this.summary.setAttribute(
      'aria-label',
      `${item.agent}: ${item.task}. ${phase}. ${item.toolCount} tool call${item.toolCount === 1 ? '' : 's'}, ${formatElapsed(item.elapsedMs)}, ${item.tokensIn} tokens in, ${item.tokensOut} out.`,
    );
    replaceChildren(
      this.summary,
      icon,
      h('span', { class: 'subagent-agent' }, item.agent),
      h('span', { class: 'subagent-task', title: item.task }, item.task),
      h(
        'span',
        { class: 'subagent-stats' },
        item.model ? h('span', { class: 'subagent-model', title: `Model: ${item.model}` }, item.model) : null,
        h('span', { class: 'subagent-tools', title: 'Tool calls' }, codicon('tools'), String(item.toolCount)),
        (this.elapsedEl = h('span', { class: 'subagent-elapsed', title: 'Elapsed' }, formatElapsed(this.elapsedNow(item)))),
        h('span', { class: 'subagent-tokens', title: 'Tokens in ↑ / out ↓' }, tokens),
        typeof item.costUsd === 'number'
          ? h('span', { class: 'subagent-cost', title: 'Estimated cost of its own requests' }, formatUsd(item.costUsd))
          : null,
      ),
      badge(phase, STATE_TONES[item.state]),
    );
  }

  private renderExtra(item: SubagentItem): void {
    const worktree = item.worktree;
    const key = `${worktree?.path ?? ''}\0${worktree?.branch ?? ''}\0${worktree?.promoted?.length ?? -1}\0${item.summary ?? ''}`;
    if (key === this.renderedExtra) return;
    this.renderedExtra = key;
    replaceChildren(
      this.extra,
      worktree?.path || worktree?.branch
        ? h(
            'div',
            { class: 'subagent-worktree', title: worktree.path ?? '' },
            codicon('git-branch'),
            h('span', {}, `Worktree ${worktree.branch ?? worktree.path}`),
            worktree.promoted ? h('span', { class: 'subagent-promoted' }, ` · ${worktree.promoted.length} file(s) proposed back`) : null,
          )
        : null,
      item.summary
        ? h('div', { class: 'subagent-result' }, h('span', { class: 'section-title' }, 'Summary'), h('div', {}, item.summary))
        : null,
    );
  }

  /** Mounts, updates or drops the views of the visible slice; only views whose item changed are updated. */
  private renderBody(): void {
    const items = this.ctx.state().items;
    const { indexes, hidden } = visibleChildItems(this.childIndexes, this.shown);
    this.earlier.hidden = hidden === 0;
    if (hidden > 0) this.earlier.textContent = `Show earlier (${hidden})`;
    const wanted = new Set(indexes);
    for (const [i, entry] of this.views) {
      if (wanted.has(i)) continue;
      entry.view.dispose?.();
      entry.view.root.remove();
      this.views.delete(i);
    }
    this.placeholder.hidden = indexes.length > 0;
    let previous: Element | null = null;
    for (const i of indexes) {
      const item = items[i];
      const key = `${item.kind}:${item.id}`;
      let entry = this.views.get(i);
      if (entry && entry.key !== key) {
        entry.view.dispose?.();
        entry.view.root.remove();
        entry = undefined;
      }
      if (!entry) {
        entry = { key, view: this.createView(item), rendered: undefined, length: -1 };
        this.views.set(i, entry);
      }
      // Streamed text grows in place (append patches keep the item object): its length tells a change too.
      const length = textLength(item);
      if (entry.rendered !== item || entry.length !== length) {
        entry.view.update(item);
        entry.rendered = item;
        entry.length = length;
      }
      const el = entry.view.root;
      if (previous ? previous.nextElementSibling !== el : this.list.firstElementChild !== el) {
        if (previous) previous.after(el);
        else this.list.prepend(el);
      }
      previous = el;
    }
  }

  private dropBody(): void {
    for (const entry of this.views.values()) entry.view.dispose?.();
    this.views.clear();
    this.list.replaceChildren();
    this.shown = CHILD_PAGE;
  }
}

function textLength(item: TranscriptItem): number {
  if (item.kind === 'assistant') return item.text.length + item.thinking.length;
  if (item.kind === 'tool') return item.args.length + (item.output?.length ?? 0);
  if (item.kind === 'user') return item.text.length;
  return 0;
}
