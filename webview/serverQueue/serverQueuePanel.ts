import type { ServerQueueEntry, SessionState } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { codicon, h, iconButton, replaceChildren, vscodeButton } from '../infra/dom';
import { editOutcome, moveTarget, queuePanelModel, type QueuePanelModel, type QueueRowModel } from './serverQueueModel';

export interface ServerQueueHooks {
  /** The user's edit of a prompt that left the queue meanwhile (it ran with the old text): kept in the composer. */
  restoreDraft(text: string): void;
  /** Focus had nowhere to go in the panel (it was hidden). */
  focusComposer(): void;
}

const OPPOSITE_MOVE: Readonly<Record<string, string>> = {
  [TEST_IDS.serverQueueUp]: TEST_IDS.serverQueueDown,
  [TEST_IDS.serverQueueDown]: TEST_IDS.serverQueueUp,
};

interface Editing {
  id: string;
  original: string;
  draft: string;
  note?: string;
}

/** Which control had focus before a re-render: the same one (or its neighbour) gets it back after. */
interface FocusMark {
  rowId?: string;
  rowIndex: number;
  testId?: string;
  selection?: [number, number];
}

/**
 * The server's own queue (SCV), above the composer: one row per queued prompt with Edit (in place: Enter saves,
 * Shift+Enter is a newline, Escape cancels), Move Up, Move Down and Remove, and a Pause/Resume toggle. The server is
 * the authority: every change is a request, and rows show what it last reported.
 */
export class ServerQueuePanel {
  readonly root: HTMLElement;
  private readonly title = h('span', { class: 'server-queue-title' });
  private readonly hint = h('span', { class: 'server-queue-hint', role: 'status' });
  private readonly toggle: HTMLButtonElement;
  private readonly rowsEl = h('ol', { class: 'server-queue-rows', 'aria-label': 'Queued prompts' });
  private model: QueuePanelModel | undefined;
  private entries: readonly ServerQueueEntry[] = [];
  private editing: Editing | undefined;
  private lastQueue: SessionState['serverQueue'];
  private lastCore: SessionState['core'] | undefined;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly hooks: ServerQueueHooks,
  ) {
    this.toggle = h('button', {
      type: 'button',
      class: 'server-queue-toggle',
      'data-testid': TEST_IDS.serverQueuePause,
      'aria-pressed': 'false',
    });
    this.toggle.addEventListener('click', () => {
      if (this.model) this.post({ type: 'queuePause', paused: !this.model.paused });
    });
    this.root = h(
      'section',
      { class: 'server-queue', 'data-testid': TEST_IDS.serverQueue, 'aria-label': 'Queued on the server', hidden: true },
      h('div', { class: 'server-queue-header' }, codicon('list-ordered'), this.title, h('span', { class: 'spacer' }), this.toggle),
      this.hint,
      this.rowsEl,
    );
  }

  update(state: SessionState): void {
    if (state.serverQueue === this.lastQueue && state.core === this.lastCore) return;
    this.lastQueue = state.serverQueue;
    this.lastCore = state.core;
    this.model = queuePanelModel(state);
    this.entries = this.model ? (state.serverQueue?.entries ?? []) : [];
    this.followEditedEntry();
    this.render();
  }

  /** The entry being edited changed on the server: an untouched editor follows it; a gone one closes, the text kept. */
  private followEditedEntry(): void {
    const editing = this.editing;
    if (!editing) return;
    const entry = this.entries.find((e) => e.id === editing.id);
    if (!entry) {
      this.editing = undefined;
      if (editing.draft.trim() !== editing.original.trim() && editing.draft.trim() !== '') this.hooks.restoreDraft(editing.draft);
    } else if (entry.prompt !== editing.original && editing.draft === editing.original) {
      editing.original = entry.prompt;
      editing.draft = entry.prompt;
    }
  }

  private render(): void {
    const model = this.model;
    const focus = this.captureFocus();
    this.root.hidden = !model;
    if (!model) {
      replaceChildren(this.rowsEl);
      if (focus) this.hooks.focusComposer();
      return;
    }
    this.title.textContent = model.title;
    this.hint.textContent = model.hint ?? '';
    this.hint.hidden = !model.hint;
    this.root.dataset.paused = String(model.paused);
    this.toggle.setAttribute('aria-pressed', String(model.paused));
    this.toggle.title = model.paused
      ? 'Resume: let the server start queued prompts again'
      : 'Pause: hold queued prompts (the running turn goes on)';
    replaceChildren(this.toggle, codicon(model.paused ? 'debug-start' : 'debug-pause'), h('span', {}, model.paused ? 'Resume' : 'Pause'));
    replaceChildren(this.rowsEl, ...model.rows.map((r) => (this.editing?.id === r.id ? this.editorRow(r, this.editing) : this.row(r))));
    if (focus) this.restoreFocus(focus);
  }

  private row(r: QueueRowModel): HTMLElement {
    const up = iconButton('arrow-up', `Move queued prompt ${r.position} up`, () => this.move(r.id, 'up'), TEST_IDS.serverQueueUp);
    const down = iconButton('arrow-down', `Move queued prompt ${r.position} down`, () => this.move(r.id, 'down'), TEST_IDS.serverQueueDown);
    up.disabled = !r.canMoveUp;
    down.disabled = !r.canMoveDown;
    return this.rowShell(
      r,
      false,
      h('span', { class: 'server-queue-position', 'aria-hidden': 'true' }, String(r.position)),
      h('span', { class: 'server-queue-prompt', title: r.prompt }, r.preview),
      h(
        'span',
        { class: 'server-queue-actions' },
        iconButton('edit', `Edit queued prompt ${r.position}`, () => this.startEditing(r), TEST_IDS.serverQueueEdit),
        up,
        down,
        iconButton(
          'trash',
          `Remove queued prompt ${r.position}`,
          () => this.post({ type: 'queueRemove', id: r.id }),
          TEST_IDS.serverQueueRemove,
        ),
      ),
    );
  }

  private editorRow(r: QueueRowModel, editing: Editing): HTMLElement {
    const input = h('textarea', {
      class: 'text-input server-queue-input',
      'data-testid': TEST_IDS.serverQueueEditInput,
      rows: '3',
      spellcheck: 'true',
      'aria-label': `Edit queued prompt ${r.position}. Enter saves, Shift+Enter adds a line, Escape cancels.`,
    });
    input.value = editing.draft;
    input.addEventListener('input', () => (editing.draft = input.value));
    input.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        this.save();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.stopEditing(r.id);
      }
    });
    return this.rowShell(
      r,
      true,
      h('span', { class: 'server-queue-position', 'aria-hidden': 'true' }, String(r.position)),
      h(
        'div',
        { class: 'server-queue-editor' },
        input,
        editing.note ? h('div', { class: 'server-queue-note', role: 'alert' }, codicon('warning'), h('span', {}, editing.note)) : null,
        h(
          'div',
          { class: 'server-queue-edit-actions' },
          vscodeButton({ label: 'Save', title: 'Save (Enter)', onClick: () => this.save() }),
          vscodeButton({ label: 'Cancel', secondary: true, title: 'Cancel (Escape)', onClick: () => this.stopEditing(r.id) }),
        ),
      ),
    );
  }

  private rowShell(r: QueueRowModel, editing: boolean, ...children: HTMLElement[]): HTMLElement {
    return h(
      'li',
      {
        class: `server-queue-row${editing ? ' editing' : ''}`,
        'data-testid': TEST_IDS.serverQueueRow,
        'data-id': r.id,
        'data-revision': String(r.revision),
      },
      ...children,
    );
  }

  private move(id: string, direction: 'up' | 'down'): void {
    const target = moveTarget(this.entries, id, direction);
    if (target) this.post({ type: 'queueMove', id: target.id, beforeId: target.beforeId });
  }

  private startEditing(r: QueueRowModel): void {
    this.editing = { id: r.id, original: r.prompt, draft: r.prompt };
    this.render();
    const input = this.rowElement(r.id)?.querySelector('textarea');
    if (!input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }

  private save(): void {
    const editing = this.editing;
    if (!editing) return;
    const outcome = editOutcome(editing.original, editing.draft);
    if (outcome.kind === 'empty' || outcome.kind === 'tooLong') {
      editing.note = outcome.kind === 'empty' ? 'A queued prompt cannot be empty: use Remove to drop it.' : 'The prompt is too long.';
      this.render();
      return;
    }
    if (outcome.kind === 'save') this.post({ type: 'queueEdit', id: editing.id, prompt: outcome.prompt });
    this.stopEditing(editing.id);
  }

  private stopEditing(id: string): void {
    this.editing = undefined;
    this.render();
    const edit = this.rowElement(id)?.querySelector<HTMLButtonElement>(`[data-testid=${TEST_IDS.serverQueueEdit}]`);
    if (edit) edit.focus();
    else this.toggle.focus();
  }

  private rowElement(id: string): HTMLElement | undefined {
    return [...this.rowsEl.children].find((el): el is HTMLElement => (el as HTMLElement).dataset.id === id);
  }

  private captureFocus(): FocusMark | undefined {
    const active = document.activeElement as HTMLElement | null;
    if (!active || !this.root.contains(active)) return undefined;
    const row = active.closest<HTMLElement>('li[data-id]');
    const mark: FocusMark = {
      rowId: row?.dataset.id,
      rowIndex: row ? [...this.rowsEl.children].indexOf(row) : -1,
      testId: active.dataset.testid,
    };
    if (active instanceof HTMLTextAreaElement) mark.selection = [active.selectionStart, active.selectionEnd];
    return mark;
  }

  /**
   * Re-rendering replaced the focused control: focus the same control of the same entry (it may have moved), else the
   * nearest usable control of that entry, else the row now at the same place (after a removal), else the toggle.
   */
  private restoreFocus(mark: FocusMark): void {
    if (this.root.contains(document.activeElement)) return;
    const rows = [...this.rowsEl.children] as HTMLElement[];
    const row =
      (mark.rowId !== undefined ? this.rowElement(mark.rowId) : undefined) ??
      (mark.rowIndex >= 0 ? rows[Math.min(mark.rowIndex, rows.length - 1)] : undefined);
    const usable = (el: Element | null | undefined): el is HTMLElement => Boolean(el) && !(el as HTMLButtonElement).disabled;
    const byTestId = (testId: string | undefined) => (testId ? row?.querySelector(`[data-testid=${testId}]`) : undefined);
    const same = byTestId(mark.testId);
    // Moved to the top or bottom: its Move Up (Down) is now disabled, the other direction is the natural next press.
    const opposite = byTestId(OPPOSITE_MOVE[mark.testId ?? '']);
    const target = usable(same) ? same : usable(opposite) ? opposite : [...(row?.querySelectorAll('button, textarea') ?? [])].find(usable);
    if (!target) {
      this.toggle.focus();
      return;
    }
    target.focus();
    if (mark.selection && target instanceof HTMLTextAreaElement) target.setSelectionRange(mark.selection[0], mark.selection[1]);
  }
}
