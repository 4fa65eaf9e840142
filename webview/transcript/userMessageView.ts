import type { UserItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren } from '../infra/dom';
import type { ItemView } from './itemView';

/** The user's prompt as plain text (never Markdown-rendered), with the number of attached images. */
export class UserMessageView implements ItemView<UserItem> {
  readonly root = h('div', { class: 'item user', 'data-testid': TEST_IDS.userMessage });
  private text = '';
  private images = -1;

  update(item: UserItem): void {
    if (item.text === this.text && item.images === this.images) return;
    this.text = item.text;
    this.images = item.images;
    const attachments =
      item.images > 0
        ? h('div', { class: 'user-images' }, codicon('file-media'), ` ${item.images} image${item.images === 1 ? '' : 's'}`)
        : null;
    replaceChildren(this.root, h('div', { class: 'user-bubble' }, h('div', { class: 'user-text' }, item.text), attachments));
  }
}
