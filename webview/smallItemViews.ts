import type { BashItem, CheckpointItem, NoticeItem, SudoItem } from '../src/shared/sessionState';
import { TEST_IDS, type HostAction } from '../src/shared/webviewMessages';
import { clippedText } from './clippedText';
import { badge, codicon, h, replaceChildren, vscodeButton } from './dom';
import type { ItemContext, ItemView } from './itemView';

/** The sudo prompt: the password is asked by the host in a native input box, never in the webview. */
export class SudoCardView implements ItemView<SudoItem> {
  readonly root = h('div', { class: 'item sudo-card', 'data-testid': TEST_IDS.sudoCard, role: 'group', 'aria-label': 'sudo password request' });
  private key = '';

  constructor(private readonly ctx: ItemContext) {}

  update(item: SudoItem): void {
    const key = `${item.state}\0${item.command}`;
    if (key === this.key) return;
    this.key = key;
    this.root.dataset.state = item.state;
    const action = item.state === 'pending'
      ? vscodeButton({ label: 'Enter Password…', icon: 'key', testId: TEST_IDS.sudoAnswer, onClick: () => this.ctx.post({ type: 'action', action: 'answerSudo', arg: item.id }) })
      : h('span', { class: 'card-state' }, item.state === 'answered' ? 'Answered' : 'Cancelled');
    replaceChildren(this.root,
      h('div', { class: 'card-header' }, codicon('lock'), h('span', {}, 'sudo needs your password to run')),
      h('pre', { class: 'approval-command' }, item.command),
      h('div', { class: 'card-actions' }, action));
  }
}

const NOTICE_ICONS: Record<NoticeItem['level'], string> = { info: 'info', warning: 'warning', error: 'error' };
const ACTION_LABELS: Record<NonNullable<NoticeItem['action']>, string> = {
  login: 'Log In', restartCore: 'Restart Core', showLog: 'Show Core Log', openSettings: 'Open Settings',
};

/** An info, warning or error line, with the button that fixes it when there is one. */
export class NoticeView implements ItemView<NoticeItem> {
  readonly root = h('div', { class: 'item notice', 'data-testid': TEST_IDS.notice });
  private key = '';

  constructor(private readonly ctx: ItemContext) {}

  update(item: NoticeItem): void {
    const key = `${item.level}\0${item.text}\0${item.action ?? ''}\0${item.code ?? ''}`;
    if (key === this.key) return;
    this.key = key;
    this.root.dataset.level = item.level;
    this.root.setAttribute('role', item.level === 'error' ? 'alert' : 'status');
    const action = item.action;
    replaceChildren(this.root,
      codicon(NOTICE_ICONS[item.level]),
      h('div', { class: 'notice-text' }, item.text, item.code ? h('span', { class: 'notice-code' }, ` (${item.code})`) : null),
      action ? vscodeButton({ label: ACTION_LABELS[action], secondary: item.level !== 'error', onClick: () => this.ctx.post({ type: 'action', action: action as HostAction }) }) : null);
  }
}

/** A command the user ran themselves (`user_bash`) with its output. */
export class BashBlockView implements ItemView<BashItem> {
  readonly root = h('div', { class: 'item bash-block' });
  private key = '';

  update(item: BashItem): void {
    const key = `${item.command}\0${item.output.length}\0${item.ok}`;
    if (key === this.key) return;
    this.key = key;
    replaceChildren(this.root,
      h('div', { class: 'bash-header' }, codicon('terminal'), h('code', { class: 'bash-command' }, item.command), badge(item.ok ? 'ok' : 'failed', item.ok ? 'ok' : 'error')),
      item.output ? clippedText(item.output, 'bash-output') : null);
  }
}

/** A checkpoint the core took (automatically before the first edit of a turn, or on request). */
export class CheckpointRowView implements ItemView<CheckpointItem> {
  readonly root = h('div', { class: 'item checkpoint-row', role: 'note' });
  private key = '';

  update(item: CheckpointItem): void {
    const key = `${item.label}\0${item.auto}\0${item.restored}`;
    if (key === this.key) return;
    this.key = key;
    replaceChildren(this.root,
      codicon('git-commit'),
      h('span', { class: 'checkpoint-label' }, `Checkpoint${item.label ? `: ${item.label}` : ''}`),
      h('span', { class: 'checkpoint-kind' }, item.auto ? 'auto' : 'manual'),
      item.restored ? badge('restored', 'ok') : null);
  }
}
