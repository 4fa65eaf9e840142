import type { ApprovalItem, ApprovalDecision } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';
import { badge, codicon, h, replaceChildren, setDisabled, vscodeButton } from '../infra/dom';
import { renderDiff } from '../tools/diffView';
import { INNER_CALL_CLASS, OPEN_PATH_ATTR, type ItemContext, type ItemView } from '../transcript/itemView';
import { FILE_TOOLS } from '../review/reviewModel';
import { prettyArgs, stringField, stringListField } from '../tools/toolSummary';

/** Shown on a file tool's card when the core cannot take an edited proposal (the diff editor is then read-only). */
export const NO_EDITED_CONTENT_TEXT = 'Per-change review and editing are off: this core cannot apply an edited proposal.';

const STATE_TEXT: Record<Exclude<ApprovalItem['state'], 'pending'>, string> = {
  approved: 'Approved',
  denied: 'Rejected',
  expired: 'Expired — the core stopped waiting',
  cancelled: 'Cancelled',
};

const DECISION_TEXT: Record<string, string> = {
  yes: 'once',
  always: 'always',
  allow_session: 'for this session',
  allow_pattern: 'by pattern',
  no: '',
};

/**
 * The approval card for a tool call the core holds until the user decides: the tool, the server's one-line summary when
 * it sent one, its arguments in full (the bash command, the paths), the diff, and the decisions. Focused, Enter accepts
 * and Escape rejects. Once decided, expired or cancelled it shows that state and no buttons.
 */
export class ApprovalCardView implements ItemView<ApprovalItem> {
  readonly root: HTMLElement;
  private item: ApprovalItem | undefined;
  private renderedKey = '';
  /** Set once a decision was sent, until the host reports the new state: no double answers. */
  private sent = false;
  private patternOpen = false;
  private pattern = '';

  constructor(private readonly ctx: ItemContext) {
    this.root = h('div', { class: 'item approval-card', 'data-testid': TEST_IDS.approvalCard, role: 'group', tabindex: '0' });
    this.root.addEventListener('keydown', (event) => this.onKeyDown(event));
  }

  update(item: ApprovalItem): void {
    if (this.item && this.item.state !== item.state) this.sent = false;
    this.item = item;
    const editable = supports(this.ctx.state(), 'approval_edited_content');
    const key = `${item.state}\0${item.decision ?? ''}\0${item.edited ?? ''}\0${item.error ?? ''}\0${editable}\0${item.args}\0${item.diff ?? ''}\0${item.suggestedPattern ?? ''}\0${item.summary ?? ''}\0${this.sent}\0${this.patternOpen}`;
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    if (!this.patternOpen) this.pattern = item.suggestedPattern ?? '';
    this.render(item, editable);
  }

  private render(item: ApprovalItem, editable: boolean): void {
    const pending = item.state === 'pending';
    this.root.dataset.state = item.state;
    this.root.classList.toggle('has-error', Boolean(item.error));
    this.root.classList.toggle(INNER_CALL_CLASS, item.outerId !== undefined);
    this.root.setAttribute(
      'aria-label',
      `${pending ? 'Approval needed' : 'Approval'}: ${item.tool}${item.childRunId !== undefined ? ` (subagent ${item.agent ?? item.childRunId})` : ''}${pending ? '. Enter accepts, Escape rejects.' : ''}`,
    );
    this.root.tabIndex = pending ? 0 : -1;
    const hadFocus = this.root.contains(document.activeElement);
    replaceChildren(
      this.root,
      this.header(item),
      item.error ? h('div', { class: 'approval-error', role: 'alert' }, codicon('error'), h('span', {}, item.error)) : null,
      item.summary ? h('div', { class: 'approval-summary', title: item.summary }, item.summary) : null,
      this.subject(item),
      h('details', { class: 'approval-args', open: !item.diff }, h('summary', {}, 'Arguments'), h('pre', {}, prettyArgs(item.args))),
      item.diff ? renderDiff(item.diff) : null,
      pending && FILE_TOOLS.has(item.tool) && !editable
        ? h('div', { class: 'approval-note' }, codicon('info'), h('span', {}, NO_EDITED_CONTENT_TEXT))
        : null,
      pending ? this.actions(item) : null,
      pending && this.patternOpen ? this.patternRow() : null,
    );
    // Re-rendering removed the focused button: keep keyboard users on the card.
    if (hadFocus && !this.root.contains(document.activeElement)) this.root.focus();
  }

  private header(item: ApprovalItem): HTMLElement {
    const pending = item.state === 'pending';
    const stateText = pending ? null : h('span', { class: 'approval-state' }, stateLabel(item));
    return h(
      'div',
      { class: 'approval-header' },
      codicon(pending ? 'shield' : item.error ? 'error' : item.state === 'approved' ? 'pass' : 'circle-slash'),
      h('span', { class: 'approval-title' }, pending ? `Allow ${item.tool}?` : item.tool),
      item.childRunId !== undefined
        ? h(
            'span',
            { class: 'approval-agent', title: `Asked by subagent ${item.agent ?? item.childRunId}` },
            `— ${item.agent ?? item.childRunId} (subagent)`,
          )
        : null,
      item.risk ? badge(item.risk, item.risk === 'high' ? 'error' : 'warn') : null,
      stateText,
    );
  }

  /** The bash command, the commit message, or the paths a tool touches, shown prominently above the raw arguments. */
  private subject(item: ApprovalItem): HTMLElement | null {
    const command = stringField(item.args, 'command');
    if (command !== undefined)
      return h('pre', { class: 'approval-command' }, h('span', { class: 'prompt', 'aria-hidden': 'true' }, '$ '), command);
    // A commit's message, in full: it is what the user approves.
    const message = item.tool === 'git_commit' ? stringField(item.args, 'message') : undefined;
    if (message !== undefined) return h('pre', { class: 'approval-command' }, message);
    const paths = [...['path', 'from', 'to'].map((k) => stringField(item.args, k)), ...stringListField(item.args, 'paths')].filter(
      (p): p is string => Boolean(p),
    );
    if (paths.length === 0) return null;
    return h(
      'div',
      { class: 'approval-paths' },
      ...paths.map((p) => h('button', { type: 'button', class: 'file-chip', [OPEN_PATH_ATTR]: p, title: `Open ${p}` }, codicon('file'), p)),
    );
  }

  private actions(item: ApprovalItem): HTMLElement {
    const state = this.ctx.state();
    const buttons = [
      vscodeButton({
        label: 'Accept',
        icon: 'check',
        testId: TEST_IDS.approvalAccept,
        title: 'Accept (Enter)',
        onClick: () => this.decide('yes'),
      }),
      vscodeButton({
        label: 'Reject',
        icon: 'close',
        secondary: true,
        testId: TEST_IDS.approvalReject,
        title: 'Reject (Escape)',
        onClick: () => this.decide('no'),
      }),
      vscodeButton({
        label: 'Always',
        secondary: true,
        testId: TEST_IDS.approvalAlways,
        title: `Always allow ${item.tool}`,
        onClick: () => this.decide('always'),
      }),
      vscodeButton({
        label: 'Accept for Session',
        secondary: true,
        testId: TEST_IDS.approvalSession,
        title: `Allow ${item.tool} for this session`,
        onClick: () => this.decide('allow_session'),
      }),
    ];
    if (supports(state, 'allow_pattern')) {
      buttons.push(vscodeButton({ label: 'Allow Pattern…', secondary: true, onClick: () => this.togglePattern() }));
    }
    if (FILE_TOOLS.has(item.tool)) {
      buttons.push(
        vscodeButton({
          label: 'Review in Diff Editor',
          icon: 'diff',
          secondary: true,
          testId: TEST_IDS.approvalReview,
          onClick: () => this.ctx.post({ type: 'action', action: 'reviewApproval', arg: item.id }),
        }),
      );
    }
    for (const b of buttons) setDisabled(b, this.sent);
    return h('div', { class: 'approval-actions' }, ...buttons);
  }

  private patternRow(): HTMLElement {
    const input = h('input', {
      type: 'text',
      class: 'text-input',
      'aria-label': 'Allow pattern',
      spellcheck: 'false',
      value: this.pattern,
    });
    input.value = this.pattern;
    input.addEventListener('input', () => (this.pattern = input.value));
    const allow = vscodeButton({ label: 'Allow', onClick: () => this.decidePattern() });
    const cancel = vscodeButton({ label: 'Cancel', secondary: true, onClick: () => this.togglePattern() });
    setDisabled(allow, this.sent);
    queueMicrotask(() => input.focus());
    return h('div', { class: 'approval-pattern' }, h('label', {}, 'Pattern'), input, allow, cancel);
  }

  private togglePattern(): void {
    this.patternOpen = !this.patternOpen;
    if (this.item) this.update(this.item);
    if (!this.patternOpen) this.root.focus();
  }

  private decide(decision: ApprovalDecision): void {
    const item = this.item;
    if (!item || item.state !== 'pending' || this.sent) return;
    this.sent = true;
    this.ctx.post({ type: 'approve', requestId: item.id, decision });
    this.update(item);
  }

  private decidePattern(): void {
    const item = this.item;
    const pattern = this.pattern.trim();
    if (!item || item.state !== 'pending' || this.sent || pattern === '') return;
    this.sent = true;
    this.ctx.post({ type: 'approve', requestId: item.id, decision: 'allow_pattern', pattern });
    this.update(item);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (this.item?.state !== 'pending' || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    const inPattern = target.tagName === 'INPUT';
    if (event.key === 'Escape') {
      event.preventDefault();
      if (inPattern) this.togglePattern();
      else this.decide('no');
    } else if (event.key === 'Enter' && !event.shiftKey) {
      // Enter on a button is that button's click; on the pattern field it allows the pattern; on the card it accepts.
      if (inPattern) {
        event.preventDefault();
        this.decidePattern();
      } else if (target === this.root) {
        event.preventDefault();
        this.decide('yes');
      }
    }
  }
}

export function stateLabel(item: ApprovalItem): string {
  if (item.state === 'pending') return '';
  const how = item.state === 'approved' && item.decision ? DECISION_TEXT[item.decision] : '';
  if (item.state === 'approved' && item.edited)
    return how && how !== 'once' ? `Approved with your edits (${how})` : 'Approved with your edits';
  return how ? `${STATE_TEXT[item.state]} ${how}` : STATE_TEXT[item.state];
}
