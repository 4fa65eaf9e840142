/**
 * The header's "Rules: N" chip: which project rules files the core put in the system prompt. It opens a list naming
 * each file (the folder it applies to, its tokens, whether it was cut); a row opens the file in the editor (the host
 * checks that the path is inside the workspace). Hidden while no rules file is in effect.
 */
import type { RulesView } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren } from '../infra/dom';
import { rulesChipOf, rulesFooterOf, rulesRowOf } from './rulesModel';

export class RulesChip {
  readonly root: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly list: HTMLElement;
  private rules: RulesView | undefined;

  constructor(private readonly post: (message: WebviewToHost) => void) {
    this.button = h(
      'button',
      { type: 'button', class: 'rules-chip', 'data-testid': TEST_IDS.rulesChip, 'aria-haspopup': 'true', 'aria-expanded': 'false' },
      '',
    );
    this.list = h('div', {
      class: 'rules-list',
      'data-testid': TEST_IDS.rulesList,
      role: 'dialog',
      'aria-label': 'Project rules',
      hidden: true,
    });
    this.root = h('span', { class: 'rules-chip-anchor', hidden: true }, this.button, this.list);
    this.button.addEventListener('click', () => this.setOpen(!this.isOpen()));
    this.root.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !this.isOpen()) return;
      event.stopPropagation();
      this.setOpen(false);
      this.button.focus();
    });
    this.root.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null;
      if (next && !this.root.contains(next)) this.setOpen(false);
    });
  }

  update(rules: RulesView | undefined): void {
    this.rules = rules;
    const chip = rulesChipOf(rules);
    this.root.hidden = !chip;
    if (!chip) {
      this.setOpen(false);
      return;
    }
    this.button.textContent = '';
    this.button.append(codicon('book'), h('span', { class: 'rules-chip-label' }, chip.label));
    this.button.title = chip.title;
    this.button.setAttribute('aria-label', chip.title);
    if (this.isOpen()) this.renderList();
  }

  private isOpen(): boolean {
    return !this.list.hasAttribute('hidden');
  }

  private setOpen(open: boolean): void {
    if (open === this.isOpen()) return;
    this.list.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (!open) return;
    this.renderList();
    this.list.querySelector<HTMLButtonElement>('button')?.focus();
  }

  private renderList(): void {
    const rules = this.rules;
    if (!rules) return;
    const rows = rules.files.map((file) => {
      const row = rulesRowOf(file);
      const open = h(
        'button',
        { type: 'button', class: 'rules-row', 'data-testid': TEST_IDS.rulesRow, 'data-path': row.path, title: `Open ${row.path}` },
        h('span', { class: 'rules-row-path' }, row.path),
        h('span', { class: 'rules-row-detail' }, row.detail),
        row.truncated ? h('span', { class: 'rules-row-cut', title: 'Cut at the size cap: only the start is in the prompt' }, 'cut') : '',
      );
      open.addEventListener('click', () => this.post({ type: 'openFile', path: file.path }));
      return h('li', {}, open);
    });
    const footer = rulesFooterOf(rules);
    replaceChildren(
      this.list,
      h('div', { class: 'rules-list-heading' }, 'Project rules in the system prompt'),
      h('ul', { class: 'rules-rows' }, ...rows),
      footer ? h('div', { class: 'rules-list-footer' }, footer) : '',
    );
  }
}
