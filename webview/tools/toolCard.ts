import type { ToolItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { badge, codicon, h, replaceChildren } from '../infra/dom';
import { diffStats, parseDiffLines } from './diffLines';
import { renderDiff } from './diffView';
import { INNER_CALL_CLASS, OPEN_PATH_ATTR, type ItemContext, type ItemView } from '../transcript/itemView';
import { prettyArgs, summarizeTool, toolStatusLabel, toolStatusTone, visibleProgress } from './toolSummary';
import { clippedText } from '../infra/clippedText';
import { SubagentPanel } from '../subagents/subagentPanel';
import { isSubagentCard } from '../subagents/subagentModel';
import type { ChildViewFactory } from '../subagents/subagentRow';
import { WEB_RESULT_TOOLS, WebResultView } from './webResultView';

/**
 * A tool call: codicon, name, key argument and status badge in a summary line; the server's progress lines while it
 * runs; arguments, output and diff in the expandable body (built only while open); changed files as links below. A
 * `subagent` call also shows its child runs (SubagentPanel), whose messages and tools use the views `createChildView` makes.
 */
export class ToolCardView implements ItemView<ToolItem> {
  readonly root: HTMLElement;
  private readonly details: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly body: HTMLElement;
  private readonly files: HTMLElement;
  private readonly progress: HTMLElement;
  private item: ToolItem | undefined;
  private renderedBody = '';
  private renderedSummary = '';
  private renderedFiles = '';
  private renderedProgress: readonly string[] = [];
  private panel: SubagentPanel | undefined;
  private web: WebResultView | undefined;

  constructor(
    private readonly ctx: ItemContext,
    private readonly createChildView?: ChildViewFactory,
  ) {
    this.summary = h('summary', { class: 'tool-header' });
    this.body = h('div', { class: 'tool-body' });
    this.details = h('details', { class: 'tool-details' }, this.summary, this.body);
    this.files = h('div', { class: 'tool-files' });
    this.progress = h('pre', { class: 'tool-progress', 'data-testid': TEST_IDS.toolProgress, 'aria-label': 'Progress', hidden: true });
    this.root = h('div', { class: 'item tool-card', 'data-testid': TEST_IDS.toolCard }, this.details, this.progress, this.files);
    this.details.addEventListener('toggle', () => {
      if (this.item) this.ctx.ui.setExpanded(`tool:${this.item.id}`, this.details.open);
      this.renderBody();
    });
  }

  update(item: ToolItem): void {
    this.item = item;
    this.root.dataset.status = item.status;
    this.root.dataset.tool = item.name;
    this.root.classList.toggle(INNER_CALL_CLASS, item.outerId !== undefined);
    const open = this.ctx.ui.expandedChoice(`tool:${item.id}`) ?? false;
    if (this.details.open !== open) this.details.open = open;
    this.renderSummary(item);
    this.renderProgress(item);
    this.renderFiles(item);
    this.renderBody();
    this.renderPanel(item);
    this.renderWeb(item);
  }

  private renderWeb(item: ToolItem): void {
    if (!WEB_RESULT_TOOLS.has(item.name)) return;
    if (!this.web) {
      this.web = new WebResultView(this.ctx);
      this.progress.after(this.web.root);
    }
    this.web.update(item);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private renderPanel(item: ToolItem): void {
    if (!this.createChildView || !isSubagentCard(item)) return;
    if (!this.panel) {
      this.panel = new SubagentPanel(this.ctx, this.createChildView);
      this.progress.after(this.panel.root);
    }
    this.panel.update(item);
  }

  private renderSummary(item: ToolItem): void {
    // Arguments only grow while streaming: their length identifies them without copying a large string per frame.
    const key = `${item.name}\0${item.args.length}\0${item.status}\0${item.diff?.length ?? -1}\0${item.output?.length ?? -1}`;
    if (key === this.renderedSummary) return;
    this.renderedSummary = key;
    const summary = summarizeTool(item.name, item.args, item.output);
    const tone = toolStatusTone(item.status);
    const icon = tone === 'busy' ? codicon('loading', 'codicon-modifier-spin') : codicon(summary.icon);
    const stats = item.diff ? diffStats(parseDiffLines(item.diff)) : undefined;
    replaceChildren(
      this.summary,
      icon,
      h('span', { class: 'tool-name' }, item.name),
      h('span', { class: 'tool-detail', title: summary.detail }, summary.detail),
      stats
        ? h(
            'span',
            { class: 'diff-stats' },
            h('span', { class: 'added' }, `+${stats.added}`),
            ' ',
            h('span', { class: 'removed' }, `−${stats.removed}`),
          )
        : null,
      badge(toolStatusLabel(item.status), tone),
    );
  }

  private renderProgress(item: ToolItem): void {
    const lines = visibleProgress(item);
    if (lines === this.renderedProgress) return;
    this.renderedProgress = lines;
    this.progress.hidden = lines.length === 0;
    this.progress.textContent = lines.join('\n');
  }

  private renderFiles(item: ToolItem): void {
    const key = item.files.join('\0');
    if (key === this.renderedFiles) return;
    this.renderedFiles = key;
    replaceChildren(
      this.files,
      ...item.files.map((path) =>
        h('button', { type: 'button', class: 'file-chip', [OPEN_PATH_ATTR]: path, title: `Open ${path}` }, codicon('go-to-file'), path),
      ),
    );
  }

  private renderBody(): void {
    const item = this.item;
    if (!item || !this.details.open) return;
    const key = `${item.args.length}\0${item.output?.length ?? -1}\0${item.diff?.length ?? -1}\0${item.status}`;
    if (key === this.renderedBody) return;
    this.renderedBody = key;
    replaceChildren(
      this.body,
      section('Arguments', h('pre', { class: 'tool-args' }, prettyArgs(item.args))),
      item.diff ? section('Diff', renderDiff(item.diff)) : null,
      item.output !== undefined ? section('Output', clippedText(item.output, 'tool-output')) : null,
    );
  }
}

function section(title: string, content: HTMLElement): HTMLElement {
  return h('div', { class: 'tool-section' }, h('div', { class: 'section-title' }, title), content);
}
