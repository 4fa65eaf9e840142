import type { SessionView } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { codicon, focusWhenRendered, h, iconButton, replaceChildren, vscodeButton } from '../infra/dom';
import { orderSessions, relativeTime } from './sessionOrder';

/**
 * The sessions panel: filter, open, rename (inline), pin/unpin, delete (after an inline confirmation), new session.
 * Escape closes it and gives focus back to whoever opened it.
 */
export class SessionList {
  readonly root: HTMLElement;
  private readonly rows = h('ul', { class: 'session-rows', role: 'list' });
  private readonly filter = h('input', {
    type: 'search',
    class: 'text-input',
    placeholder: 'Filter sessions',
    'aria-label': 'Filter sessions',
  });
  private sessions: readonly SessionView[] = [];
  private renaming: string | undefined;
  private confirmingDelete: string | undefined;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly onClose: () => void,
  ) {
    this.filter.addEventListener('input', () => this.render());
    this.root = h(
      'div',
      { class: 'session-panel', 'data-testid': TEST_IDS.sessionList, role: 'region', 'aria-label': 'Sessions', hidden: true },
      h(
        'div',
        { class: 'session-panel-header' },
        this.filter,
        iconButton('add', 'New session', () => {
          this.post({ type: 'newSession' });
          this.onClose();
        }),
        iconButton('close', 'Close sessions', () => this.onClose()),
      ),
      this.rows,
    );
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        this.onClose();
      }
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  setOpen(open: boolean): void {
    this.root.hidden = !open;
    this.renaming = undefined;
    this.confirmingDelete = undefined;
    if (!open) return;
    this.post({ type: 'listSessions' });
    this.render();
    this.filter.focus();
  }

  update(sessions: readonly SessionView[]): void {
    if (sessions === this.sessions) return;
    this.sessions = sessions;
    if (this.isOpen) this.render();
  }

  private render(): void {
    const list = orderSessions(this.sessions, this.filter.value);
    const now = Date.now();
    replaceChildren(this.rows, ...list.map((s) => this.row(s, now)));
    if (list.length === 0)
      this.rows.appendChild(h('li', { class: 'session-empty' }, this.sessions.length ? 'No session matches.' : 'No saved sessions yet.'));
  }

  private row(s: SessionView, now: number): HTMLElement {
    const li = h('li', {
      class: `session-row${s.current ? ' current' : ''}${s.pinned ? ' pinned' : ''}`,
      'data-testid': TEST_IDS.sessionRow,
      'data-path': s.path,
    });
    if (this.renaming === s.path) return replaceWith(li, this.renameEditor(s));
    if (this.confirmingDelete === s.path) return replaceWith(li, this.deleteConfirm(s));
    const title = s.title || s.name || 'Untitled session';
    const open = h(
      'button',
      { type: 'button', class: 'session-open', title: s.path, 'aria-current': s.current ? 'true' : undefined },
      s.pinned ? codicon('pinned') : null,
      h('span', { class: 'session-title' }, title),
      h('span', { class: 'session-meta' }, `${relativeTime(s.mtime, now)} · ${s.messages} message${s.messages === 1 ? '' : 's'}`),
    );
    open.addEventListener('click', () => {
      if (!s.current) this.post({ type: 'openSession', path: s.path });
      this.onClose();
    });
    li.append(
      open,
      iconButton(s.pinned ? 'pinned' : 'pin', s.pinned ? `Unpin ${title}` : `Pin ${title}`, () =>
        this.post({ type: 'pinSession', path: s.path, pinned: !s.pinned }),
      ),
      iconButton('edit', `Rename ${title}`, () => this.startRename(s.path)),
      iconButton('trash', `Delete ${title}`, () => this.startDelete(s.path)),
    );
    return li;
  }

  private renameEditor(s: SessionView): HTMLElement {
    const input = h('input', { type: 'text', class: 'text-input', 'aria-label': 'New session title', maxlength: '200' });
    input.value = s.title;
    const commit = () => {
      const title = input.value.trim();
      this.renaming = undefined;
      if (title && title !== s.title) this.post({ type: 'renameSession', path: s.path, title });
      this.render();
      this.focusRow(s.path);
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        commit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.renaming = undefined;
        this.render();
        this.focusRow(s.path);
      }
    });
    queueMicrotask(() => {
      input.focus();
      input.select();
    });
    return h('div', { class: 'session-edit' }, input, vscodeButton({ label: 'Save', onClick: commit }));
  }

  private deleteConfirm(s: SessionView): HTMLElement {
    const cancel = vscodeButton({
      label: 'Cancel',
      secondary: true,
      onClick: () => {
        this.confirmingDelete = undefined;
        this.render();
        this.focusRow(s.path);
      },
    });
    const confirm = vscodeButton({
      label: 'Delete',
      icon: 'trash',
      onClick: () => {
        this.confirmingDelete = undefined;
        this.post({ type: 'deleteSession', path: s.path });
        this.render();
      },
    });
    focusWhenRendered(cancel);
    return h(
      'div',
      { class: 'session-confirm', role: 'alertdialog', 'aria-label': 'Confirm delete' },
      h('span', {}, `Delete “${s.title || s.name}”? This cannot be undone.`),
      confirm,
      cancel,
    );
  }

  private startRename(path: string): void {
    this.renaming = path;
    this.confirmingDelete = undefined;
    this.render();
  }

  private startDelete(path: string): void {
    this.confirmingDelete = path;
    this.renaming = undefined;
    this.render();
  }

  private focusRow(path: string): void {
    const row = [...this.rows.querySelectorAll<HTMLElement>('.session-row')].find((r) => r.dataset.path === path);
    row?.querySelector<HTMLElement>('.session-open')?.focus();
  }
}

function replaceWith(li: HTMLElement, content: HTMLElement): HTMLElement {
  li.appendChild(content);
  return li;
}
