import type { AskItem, AskQuestionView } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren, setDisabled, vscodeButton } from '../infra/dom';
import type { ItemContext, ItemView } from '../transcript/itemView';

/**
 * The `ask` tool's questions as a form: select questions as buttons (a single question) or radios, text questions as
 * inputs, a custom answer when allowed, Skip. Unsent answers survive the card scrolling out of the DOM.
 */
export class AskFormView implements ItemView<AskItem> {
  readonly root: HTMLFormElement;
  private item: AskItem | undefined;
  private renderedState = '';
  private sent = false;

  constructor(private readonly ctx: ItemContext) {
    this.root = h('form', { class: 'item ask-form', 'data-testid': TEST_IDS.askForm });
    this.root.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  update(item: AskItem): void {
    this.item = item;
    const key = `${item.id}\0${item.state}\0${item.questions.length}\0${this.sent}`;
    if (key === this.renderedState) return;
    this.renderedState = key;
    if (item.state === 'pending') this.renderPending(item);
    else this.renderDone(item);
  }

  private get answers(): Record<string, string> {
    const id = this.item!.id;
    let draft = this.ctx.askDrafts.get(id);
    if (!draft) this.ctx.askDrafts.set(id, (draft = {}));
    return draft;
  }

  private renderPending(item: AskItem): void {
    const single = item.questions.length === 1 && item.questions[0].type === 'select' ? item.questions[0] : undefined;
    const submit = vscodeButton({ label: 'Submit', icon: 'check', onClick: () => this.submit() });
    const skip = vscodeButton({ label: 'Skip', secondary: true, onClick: () => this.reply(null) });
    setDisabled(skip, this.sent);
    setDisabled(submit, this.sent);
    const showSubmit = !single || single.allowCustom;
    replaceChildren(
      this.root,
      h('div', { class: 'ask-header' }, codicon('question'), h('span', {}, 'The assistant asks')),
      ...item.questions.map((q) => (q === single ? this.quickSelect(q) : this.question(q))),
      h('div', { class: 'ask-actions' }, showSubmit ? submit : null, skip),
    );
    this.root.setAttribute('aria-label', 'Questions from the assistant');
  }

  /** One select question: each option is a button that answers at once. */
  private quickSelect(q: AskQuestionView): HTMLElement {
    const options = (q.options ?? []).map((option) => {
      const b = vscodeButton({ label: option, secondary: true, onClick: () => this.reply({ [q.id]: option }) });
      setDisabled(b, this.sent);
      return b;
    });
    return h(
      'fieldset',
      { class: 'ask-question' },
      h('legend', {}, q.prompt),
      h('div', { class: 'ask-options', role: 'group', 'aria-label': q.prompt }, ...options),
      q.allowCustom ? this.customInput(q, 'Or type an answer') : null,
    );
  }

  private question(q: AskQuestionView): HTMLElement {
    const legend = h('legend', {}, q.prompt, q.required ? h('span', { class: 'required', 'aria-label': 'required' }, ' *') : null);
    if (q.type === 'text') {
      return h('fieldset', { class: 'ask-question' }, legend, this.textInput(q, q.placeholder ?? ''));
    }
    const name = `ask-${this.item!.id}-${q.id}`;
    const current = this.answers[q.id];
    const radios = (q.options ?? []).map((option) => this.radio(name, option, option, current === option, q, false));
    if (q.allowCustom) radios.push(this.radio(name, '', 'Other…', current !== undefined && !(q.options ?? []).includes(current), q, true));
    return h(
      'fieldset',
      { class: 'ask-question' },
      legend,
      h('div', { class: 'ask-radios', role: 'radiogroup', 'aria-label': q.prompt }, ...radios),
      q.allowCustom ? this.customInput(q, 'Your answer') : null,
    );
  }

  private radio(name: string, value: string, label: string, checked: boolean, q: AskQuestionView, custom: boolean): HTMLElement {
    const input = h('input', { type: 'radio', name, value, checked, 'data-custom-radio': custom });
    input.addEventListener('change', () => {
      if (!input.checked) return;
      if (custom) this.answers[q.id] = this.customField(q.id)?.value ?? '';
      else this.answers[q.id] = value;
    });
    return h('label', { class: 'ask-radio' }, input, ` ${label}`);
  }

  private customInput(q: AskQuestionView, placeholder: string): HTMLElement {
    const input = this.textInput(q, placeholder);
    input.dataset.custom = q.id;
    const options = q.options ?? [];
    const current = this.answers[q.id];
    input.value = current !== undefined && !options.includes(current) ? current : '';
    input.addEventListener('focus', () => {
      const radio = [...this.root.querySelectorAll<HTMLInputElement>('input[data-custom-radio]')].find(
        (r) => r.name === `ask-${this.item!.id}-${q.id}`,
      );
      if (radio) radio.checked = true;
    });
    return input;
  }

  private customField(questionId: string): HTMLInputElement | undefined {
    return [...this.root.querySelectorAll<HTMLInputElement>('input[data-custom]')].find((i) => i.dataset.custom === questionId);
  }

  private textInput(q: AskQuestionView, placeholder: string): HTMLInputElement {
    const input = h('input', { type: 'text', class: 'text-input', placeholder, 'aria-label': q.prompt });
    input.value = this.answers[q.id] ?? '';
    input.addEventListener('input', () => (this.answers[q.id] = input.value));
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return;
      event.preventDefault();
      this.submit();
    });
    return input;
  }

  private submit(): void {
    const item = this.item;
    if (!item || item.state !== 'pending') return;
    const answers: Record<string, string> = {};
    for (const q of item.questions) {
      const value = (this.answers[q.id] ?? '').trim();
      if (value) answers[q.id] = value;
      else if (q.required) {
        this.root.querySelector<HTMLElement>('input')?.focus();
        return;
      }
    }
    this.reply(answers);
  }

  private reply(answers: Record<string, string> | null): void {
    const item = this.item;
    if (!item || item.state !== 'pending' || this.sent) return;
    this.sent = true;
    this.ctx.post({ type: 'askReply', requestId: item.id, answers });
    this.ctx.askDrafts.delete(item.id);
    this.update(item);
  }

  private renderDone(item: AskItem): void {
    const rows = item.questions.map((q) =>
      h('div', { class: 'ask-answer' }, h('span', { class: 'ask-prompt' }, q.prompt), ' ', h('strong', {}, item.answers?.[q.id] ?? '—')),
    );
    const status = item.state === 'answered' ? null : h('div', { class: 'ask-state' }, item.state === 'skipped' ? 'Skipped' : 'Cancelled');
    replaceChildren(this.root, h('div', { class: 'ask-header' }, codicon('question'), h('span', {}, 'Questions')), ...rows, status);
  }
}
