import { TEST_IDS } from '../../src/shared/webviewMessages';
import { h, replaceChildren } from '../infra/dom';

export interface CompletionEntry {
  label: string;
  detail?: string;
  insertText: string;
}

let nextListId = 0;

/**
 * The completion list above the composer (slash commands, @file mentions): a listbox the textarea drives with
 * arrows, Enter/Tab and Escape through `aria-activedescendant`, so focus never leaves the textarea.
 */
export class CompletionPopup {
  readonly root: HTMLElement;
  private entries: CompletionEntry[] = [];
  private active = 0;
  private onPick: ((entry: CompletionEntry) => void) | undefined;
  private readonly id = `completion-${nextListId++}`;

  constructor(private readonly owner: HTMLElement) {
    this.root = h('ul', {
      class: 'completion-list',
      id: this.id,
      role: 'listbox',
      'data-testid': TEST_IDS.completionList,
      hidden: true,
      'aria-label': 'Suggestions',
    });
    owner.setAttribute('aria-autocomplete', 'list');
    owner.setAttribute('aria-controls', this.id);
    owner.setAttribute('aria-expanded', 'false');
    // mousedown, not click: picking must not blur the textarea first.
    this.root.addEventListener('mousedown', (event) => {
      const option = (event.target as Element).closest<HTMLElement>('[role=option]');
      if (!option) return;
      event.preventDefault();
      this.active = Number(option.dataset.index);
      this.accept();
    });
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  show(entries: CompletionEntry[], onPick: (entry: CompletionEntry) => void): void {
    if (entries.length === 0) {
      this.hide();
      return;
    }
    this.entries = entries;
    this.onPick = onPick;
    this.active = 0;
    replaceChildren(
      this.root,
      ...entries.map((e, i) =>
        h(
          'li',
          { id: `${this.id}-${i}`, role: 'option', class: 'completion-item', 'data-index': String(i) },
          h('span', { class: 'completion-label' }, e.label),
          e.detail ? h('span', { class: 'completion-detail' }, e.detail) : null,
        ),
      ),
    );
    this.root.hidden = false;
    this.owner.setAttribute('aria-expanded', 'true');
    this.highlight();
  }

  hide(): void {
    if (this.root.hidden) return;
    this.root.hidden = true;
    this.entries = [];
    this.onPick = undefined;
    this.owner.setAttribute('aria-expanded', 'false');
    this.owner.removeAttribute('aria-activedescendant');
  }

  move(delta: number): void {
    if (!this.entries.length) return;
    this.active = (this.active + delta + this.entries.length) % this.entries.length;
    this.highlight();
  }

  accept(): boolean {
    const entry = this.entries[this.active];
    const pick = this.onPick;
    if (!entry || !pick) return false;
    this.hide();
    pick(entry);
    return true;
  }

  private highlight(): void {
    for (const li of this.root.children) {
      const selected = Number((li as HTMLElement).dataset.index) === this.active;
      li.setAttribute('aria-selected', String(selected));
      if (selected) li.scrollIntoView({ block: 'nearest' });
    }
    this.owner.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
  }
}
