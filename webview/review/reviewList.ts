import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren, vscodeButton } from '../infra/dom';
import { OPEN_PATH_ATTR } from '../transcript/itemView';
import {
  type DiffCounts,
  type ReviewRow,
  ReviewRowCache,
  groupRowsByRun,
  reviewAffected,
  reviewApprovals,
  rowsSignature,
} from './reviewModel';
import type { StateChange } from '../state/store';
import { toolIcon } from '../tools/toolSummary';
import type { UiStateStore } from '../state/uiState';

/** The key of the list's open/closed choice in the UI state (item ids never start with '@'). */
const OPEN_KEY = '@review-list';

/**
 * "Review changes", above the composer: every file change the current run proposed (or, when idle, the last run that
 * proposed any), with its +/− line counts and where it stands. A waiting change has a Review button that opens it in the
 * diff editor; a decided one opens the file. Collapsible; hidden while it has no rows. It re-renders only when a patch
 * can have changed its rows (an approval, a prompt or the run), and then only when the rows differ.
 */
export class ReviewList {
  readonly root: HTMLElement;
  private readonly details: HTMLDetailsElement;
  private readonly summaryText: HTMLElement;
  private readonly rowsEl: HTMLElement;
  private readonly cache = new ReviewRowCache();
  private shown: ReadonlySet<number> = new Set();
  private lastLength = 0;
  private signature = '';

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly ui: UiStateStore,
  ) {
    this.summaryText = h('span', { class: 'review-summary-text' });
    this.rowsEl = h('ul', { class: 'review-rows', 'aria-label': 'Proposed file changes' });
    this.details = h(
      'details',
      { class: 'review-details', open: this.openChoice() },
      h('summary', { class: 'review-summary' }, codicon('git-compare'), this.summaryText),
      this.rowsEl,
    );
    this.details.addEventListener('toggle', () => {
      if (this.details.open !== this.openChoice()) this.ui.setExpanded(OPEN_KEY, this.details.open);
    });
    this.rowsEl.addEventListener('click', (event) => this.onClick(event));
    this.root = h(
      'section',
      { class: 'review-list', 'data-testid': TEST_IDS.reviewList, 'aria-label': 'Review changes', hidden: true },
      this.details,
    );
  }

  update(state: SessionState, change: StateChange): void {
    const affected = reviewAffected(change, state.items, this.shown, this.lastLength);
    this.lastLength = state.items.length;
    if (!affected) return;
    const selection = reviewApprovals(state.items, state.run);
    this.shown = new Set(selection.indexes);
    const rows = this.cache.rows(selection.approvals);
    const signature = rowsSignature(rows);
    if (signature === this.signature) return;
    this.signature = signature;
    this.render(rows);
  }

  private openChoice(): boolean {
    return this.ui.expandedChoice(OPEN_KEY) ?? true;
  }

  private render(rows: readonly ReviewRow[]): void {
    this.root.hidden = rows.length === 0;
    const waiting = rows.filter((r) => r.state === 'pending').length;
    this.summaryText.textContent = `Review changes · ${rows.length} file${rows.length === 1 ? '' : 's'}${waiting ? ` · ${waiting} waiting` : ''}`;
    // Re-rendering removes a focused Review button: keep keyboard users in the list.
    const hadFocus = this.rowsEl.contains(document.activeElement);
    const groups = groupRowsByRun(rows);
    // Only a list with a subagent's proposals gets headings: the parent's rows alone read as before.
    const headed = groups.some((g) => g.childRunId !== undefined);
    replaceChildren(
      this.rowsEl,
      ...groups.flatMap((g) => [headed ? this.groupHeading(g.agent, g.childRunId) : null, ...g.rows.map((r) => this.row(r))]),
    );
    if (hadFocus && !this.root.contains(document.activeElement)) this.details.querySelector('summary')?.focus();
  }

  private groupHeading(agent: string | undefined, childRunId: string | undefined): HTMLElement {
    return h(
      'li',
      { class: 'review-group', 'data-child-run-id': childRunId ?? '' },
      codicon(childRunId ? 'hubot' : 'account'),
      h('span', {}, childRunId ? `${agent ?? childRunId} (subagent)` : 'This run'),
    );
  }

  private row(r: ReviewRow): HTMLElement {
    const pending = r.state === 'pending';
    const name = pending
      ? h('span', { class: 'review-path', title: r.path }, r.path)
      : h('button', { type: 'button', class: 'review-path link-button', [OPEN_PATH_ATTR]: r.path, title: `Open ${r.path}` }, r.path);
    const review = pending
      ? vscodeButton({
          label: 'Review',
          icon: 'diff',
          ariaLabel: `Review ${r.path} in the diff editor`,
          title: 'Review in Diff Editor',
          onClick: () => this.post({ type: 'action', action: 'reviewApproval', arg: r.id }),
        })
      : null;
    return h(
      'li',
      { class: 'review-row', 'data-testid': TEST_IDS.reviewListRow, 'data-state': r.state, 'data-path': r.path, 'data-request-id': r.id },
      h('span', { class: 'review-icon', title: r.tool }, codicon(toolIcon(r.tool))),
      name,
      r.counts ? countsView(r.counts) : h('span', { class: 'review-counts' }),
      h(
        'span',
        { class: 'review-meta' },
        h('span', { class: 'review-tool' }, r.tool),
        ' · ',
        h('span', { class: 'review-state' }, r.stateText),
      ),
      review ? h('span', { class: 'review-action' }, review) : null,
      r.error ? h('div', { class: 'review-error' }, codicon('error'), h('span', {}, r.error)) : null,
    );
  }

  private onClick(event: MouseEvent): void {
    const pathEl = (event.target as Element | null)?.closest(`[${OPEN_PATH_ATTR}]`);
    if (!pathEl) return;
    event.preventDefault();
    this.post({ type: 'openFile', path: pathEl.getAttribute(OPEN_PATH_ATTR)! });
  }
}

function countsView(c: DiffCounts): HTMLElement {
  if (c.partial && c.added === 0 && c.removed === 0)
    return h('span', { class: 'review-counts', title: 'The diff was too large to show' }, 'large change');
  const more = c.partial ? '…' : '';
  const title = `${c.added} line${c.added === 1 ? '' : 's'} added, ${c.removed} removed${c.partial ? ' at least (the diff was cut short)' : ''}`;
  return h(
    'span',
    { class: 'review-counts', title },
    h('span', { class: 'review-added' }, `+${c.added}${more}`),
    ' ',
    h('span', { class: 'review-removed' }, `−${c.removed}${more}`),
  );
}
