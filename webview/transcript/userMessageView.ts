import type { UserItem } from '../../src/shared/sessionState';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { codicon, h, replaceChildren } from '../infra/dom';
import type { ItemView } from './itemView';

/**
 * The user's prompt as plain text (never Markdown-rendered), with the number of attached images and, when the chosen
 * model could not see them, who did (a vision hand-off "→ model" or "described by model"; the core's full info on hover).
 */
export class UserMessageView implements ItemView<UserItem> {
  readonly root = h('div', { class: 'item user', 'data-testid': TEST_IDS.userMessage });
  /** What is on screen, by value: an `append` patch grows the item's text in place, so the object itself cannot tell. */
  private shown: { text: string; images: number; vision: string | undefined } | undefined;

  update(item: UserItem): void {
    const was = this.shown;
    if (was && item.text === was.text && item.images === was.images && item.vision?.detail === was.vision) return;
    this.shown = { text: item.text, images: item.images, vision: item.vision?.detail };
    const vision = item.vision
      ? h('span', { class: 'user-vision', 'data-testid': TEST_IDS.visionNote, title: item.vision.detail }, ` · ${item.vision.label}`)
      : null;
    const attachments =
      item.images > 0
        ? h('div', { class: 'user-images' }, codicon('file-media'), ` ${item.images} image${item.images === 1 ? '' : 's'}`, vision)
        : null;
    replaceChildren(this.root, h('div', { class: 'user-bubble' }, h('div', { class: 'user-text' }, item.text), attachments));
  }
}
