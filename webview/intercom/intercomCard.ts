import type { IntercomItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren, setDisabled, vscodeButton } from '../infra/dom';
import type { ItemContext, ItemView } from '../transcript/itemView';

const STATE_TEXT: Record<Exclude<IntercomItem['state'], 'pending' | 'info'>, string> = {
  answered: 'Answered',
  expired: 'Expired — nobody answered in time',
  cancelled: 'Cancelled',
};

/**
 * A subagent's message to the user (intercom): a question it is blocked on, with a reply box and Send (Ctrl/Cmd+Enter),
 * or a progress note. Once answered, expired or cancelled it shows that state (and the reply) instead of the box. The
 * unsent reply is kept while the card scrolls out of the DOM.
 */
export class IntercomCardView implements ItemView<IntercomItem> {
  readonly root = h('div', { class: 'item intercom-card', 'data-testid': TEST_IDS.intercomCard, role: 'group', tabindex: '-1' });
  private renderedKey = '';
  /** Set once a reply was sent, until the host reports the new state: no double answers. */
  private sent = false;
  private item: IntercomItem | undefined;

  constructor(private readonly ctx: ItemContext) {}

  update(item: IntercomItem): void {
    if (this.item && this.item.state !== item.state) this.sent = false;
    this.item = item;
    const key = `${item.state}\0${item.message}\0${item.reply ?? ''}\0${item.agent ?? ''}\0${this.sent}`;
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    this.render(item);
  }

  private get draftKey(): string {
    return `intercom:${this.item?.id ?? ''}`;
  }

  private render(item: IntercomItem): void {
    const question = item.state !== 'info';
    const who = item.agent ?? item.from;
    this.root.dataset.state = item.state;
    this.root.setAttribute('aria-label', question ? `Question from subagent ${who}` : `Message from subagent ${who}`);
    const hadFocus = this.root.contains(document.activeElement);
    replaceChildren(
      this.root,
      h(
        'div',
        { class: 'card-header' },
        codicon(question ? 'comment-discussion' : 'info'),
        h('span', {}, question ? `${who} asks` : `${who} reports`),
        item.state !== 'pending' && item.state !== 'info' ? h('span', { class: 'card-state' }, STATE_TEXT[item.state]) : null,
      ),
      h('div', { class: 'intercom-message' }, item.message),
      item.reply !== undefined
        ? h('div', { class: 'intercom-reply' }, h('span', { class: 'section-title' }, 'Your reply'), item.reply)
        : null,
      item.state === 'pending' ? this.replyForm(item) : null,
    );
    // Re-rendering removed the focused field or button: keep keyboard users on the card.
    if (hadFocus && !this.root.contains(document.activeElement)) this.root.focus();
  }

  private replyForm(item: IntercomItem): HTMLElement {
    const draft = this.ctx.askDrafts.get(this.draftKey)?.reply ?? '';
    const input = h('textarea', {
      class: 'text-input intercom-input',
      'data-testid': TEST_IDS.intercomReplyInput,
      rows: '3',
      spellcheck: 'true',
      placeholder: 'Reply to the subagent…',
      'aria-label': `Reply to ${item.agent ?? item.from}. Ctrl+Enter sends.`,
    });
    input.value = draft;
    const send = vscodeButton({
      label: 'Send',
      icon: 'send',
      testId: TEST_IDS.intercomSend,
      title: 'Send (Ctrl+Enter)',
      onClick: () => this.send(input.value),
    });
    const sync = () => setDisabled(send, this.sent || input.value.trim() === '');
    sync();
    input.disabled = this.sent;
    input.addEventListener('input', () => {
      this.ctx.askDrafts.set(this.draftKey, { reply: input.value });
      sync();
    });
    input.addEventListener('keydown', (event) => {
      if (event.isComposing || event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
      event.preventDefault();
      this.send(input.value);
    });
    return h('div', { class: 'intercom-form' }, input, h('div', { class: 'card-actions' }, send));
  }

  private send(reply: string): void {
    const item = this.item;
    if (!item || this.sent || item.state !== 'pending' || reply.trim() === '') return;
    this.sent = true;
    this.ctx.post({ type: 'intercomReply', id: item.id, reply });
    this.ctx.askDrafts.delete(this.draftKey);
    this.renderedKey = '';
    this.update(item);
  }
}
