import type { BashItem, CheckpointItem, NoticeItem, SudoItem } from '../../src/shared/sessionState';
import { TEST_IDS, type CheckpointRowAction, type HostAction } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';
import { clippedText } from '../infra/clippedText';
import { badge, codicon, h, replaceChildren, vscodeButton } from '../infra/dom';
import type { ItemContext, ItemView } from './itemView';

/** The sudo prompt: the password is asked by the host in a native input box, never in the webview. */
export class SudoCardView implements ItemView<SudoItem> {
  readonly root = h('div', {
    class: 'item sudo-card',
    'data-testid': TEST_IDS.sudoCard,
    role: 'group',
    'aria-label': 'sudo password request',
  });
  private key = '';

  constructor(private readonly ctx: ItemContext) {}

  update(item: SudoItem): void {
    const key = `${item.state}\0${item.command}`;
    if (key === this.key) return;
    this.key = key;
    this.root.dataset.state = item.state;
    const action =
      item.state === 'pending'
        ? vscodeButton({
            label: 'Enter Password…',
            icon: 'key',
            testId: TEST_IDS.sudoAnswer,
            onClick: () => this.ctx.post({ type: 'action', action: 'answerSudo', arg: item.id }),
          })
        : h('span', { class: 'card-state' }, item.state === 'answered' ? 'Answered' : 'Cancelled');
    replaceChildren(
      this.root,
      h('div', { class: 'card-header' }, codicon('lock'), h('span', {}, 'sudo needs your password to run')),
      h('pre', { class: 'approval-command' }, item.command),
      h('div', { class: 'card-actions' }, action),
    );
  }
}

const NOTICE_ICONS: Record<NoticeItem['level'], string> = { info: 'info', warning: 'warning', error: 'error' };
const ACTION_LABELS: Record<NonNullable<NoticeItem['action']>, string> = {
  login: 'Log In',
  restartCore: 'Restart Core',
  showLog: 'Show Core Log',
  openSettings: 'Open Settings',
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
    replaceChildren(
      this.root,
      codicon(NOTICE_ICONS[item.level]),
      h('div', { class: 'notice-text' }, item.text, item.code ? h('span', { class: 'notice-code' }, ` (${item.code})`) : null),
      action
        ? vscodeButton({
            label: ACTION_LABELS[action],
            secondary: item.level !== 'error',
            onClick: () => this.ctx.post({ type: 'action', action: action as HostAction }),
          })
        : null,
    );
  }
}

/** A command the user ran themselves (`user_bash`) with its output. */
export class BashBlockView implements ItemView<BashItem> {
  readonly root = h('div', { class: 'item bash-block', 'data-testid': TEST_IDS.bashBlock });
  private key = '';

  update(item: BashItem): void {
    const excluded = item.excludedFromContext === true;
    const key = `${item.command}\0${item.output.length}\0${item.ok}\0${excluded}`;
    if (key === this.key) return;
    this.key = key;
    this.root.dataset.ok = String(item.ok);
    this.root.dataset.excluded = String(excluded);
    replaceChildren(
      this.root,
      h(
        'div',
        { class: 'bash-header' },
        codicon('terminal'),
        h('code', { class: 'bash-command' }, `${excluded ? '!!' : '!'}${item.command}`),
        badge(item.ok ? 'ok' : 'failed', item.ok ? 'ok' : 'error'),
        excluded
          ? h('span', { class: 'bash-excluded', title: 'The output was shown here but not given to the model (!!)' }, 'not in context')
          : null,
      ),
      item.output ? clippedText(item.output, 'bash-output') : null,
    );
  }
}

/**
 * A checkpoint the core took (automatically before the first edit of a turn, or on request), with Compare (its files in
 * Source Control and the first diff) and Restore… (the host asks: files only, conversation only, or both) when the core
 * can do checkpoints.
 */
export class CheckpointRowView implements ItemView<CheckpointItem> {
  readonly root = h('div', { class: 'item checkpoint-row', role: 'group', 'data-testid': TEST_IDS.checkpointRow });
  private key = '';

  constructor(private readonly ctx: ItemContext) {}

  update(item: CheckpointItem): void {
    const actionable = !item.deleted && supports(this.ctx.state(), 'checkpoint');
    const key = `${item.label}\0${item.auto}\0${item.restored}\0${item.restoredFiles}\0${item.removedFiles}\0${item.deleted}\0${item.createdAt}\0${actionable}`;
    if (key === this.key) return;
    this.key = key;
    const label = checkpointLabel(item);
    this.root.dataset.checkpointId = item.id;
    this.root.dataset.state = item.deleted ? 'deleted' : item.restored ? 'restored' : '';
    this.root.setAttribute('aria-label', `Checkpoint: ${label}`);
    const post = (action: CheckpointRowAction) => () => this.ctx.post({ type: 'checkpointAction', id: item.id, action });
    replaceChildren(
      this.root,
      codicon('history'),
      h('span', { class: 'checkpoint-label', title: item.label }, `Checkpoint: ${label}`),
      h('span', { class: 'checkpoint-kind' }, item.auto ? 'auto' : 'manual'),
      item.createdAt
        ? h(
            'time',
            {
              class: 'checkpoint-time',
              datetime: new Date(item.createdAt).toISOString(),
              title: new Date(item.createdAt).toLocaleString(),
            },
            timeOfDay(item.createdAt),
          )
        : null,
      item.deleted ? badge('deleted', 'warn') : item.restored ? badge(restoredText(item), 'ok') : null,
      !actionable
        ? null
        : h(
            'span',
            { class: 'checkpoint-actions' },
            rowButton(
              'diff',
              'Compare',
              'Compare the checkpoint with the workspace (Source Control)',
              TEST_IDS.checkpointCompare,
              post('compare'),
            ),
            rowButton(
              'discard',
              'Restore…',
              'Restore files, conversation or both',
              TEST_IDS.checkpointRestore,
              post('restore'),
              'chevron-down',
            ),
          ),
    );
  }
}

const CHECKPOINT_LABELS: Record<string, string> = { 'auto-before-destructive': 'before agent edits', manual: '', checkpoint: '' };

function checkpointLabel(item: CheckpointItem): string {
  const known = CHECKPOINT_LABELS[item.label];
  if (known !== undefined) return known || (item.auto ? 'automatic' : 'manual');
  return item.label;
}

function restoredText(item: CheckpointItem): string {
  if (item.restoredFiles === undefined && item.removedFiles === undefined) return 'restored';
  const parts = [`restored ${item.restoredFiles ?? 0}`];
  if (item.removedFiles) parts.push(`removed ${item.removedFiles}`);
  return parts.join(', ');
}

function timeOfDay(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function rowButton(
  icon: string,
  label: string,
  title: string,
  testId: string,
  onClick: () => void,
  trailingIcon?: string,
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'checkpoint-action', title, 'data-testid': testId },
    codicon(icon),
    h('span', {}, label),
    trailingIcon ? codicon(trailingIcon, 'checkpoint-action-chevron') : null,
  );
  button.addEventListener('click', onClick);
  return button;
}
