import type { AssistantItem, TurnCost } from '../../src/shared/sessionState';
import { formatUsd } from '../../src/shared/costFormat';
import { formatTokens } from '../header/usageFormat';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';
import { codicon, h } from '../infra/dom';
import type { ItemContext, ItemView } from './itemView';
import { MarkdownView } from '../markdown/markdownView';
import { startsWithText } from '../../src/shared/statePatch';

/**
 * An assistant message: a collapsible thinking block (open while the model only thinks, collapsed once the answer
 * starts unless the user chose otherwise; never for a core without `thinking`), the answer as streaming Markdown, and a
 * typing indicator before any text.
 */
export class AssistantMessageView implements ItemView<AssistantItem> {
  readonly root: HTMLElement;
  private readonly markdown: MarkdownView;
  private thinking: ThinkingBlock | undefined;
  private readonly typing: HTMLElement;
  private costLine: HTMLElement | undefined;
  private shownCost: TurnCost | undefined;

  constructor(private readonly ctx: ItemContext) {
    this.markdown = new MarkdownView(document, ctx.highlighter);
    this.typing = h('div', { class: 'typing', 'aria-label': 'The assistant is writing' }, h('span'), h('span'), h('span'));
    this.root = h('div', { class: 'item assistant', 'data-testid': TEST_IDS.assistantMessage }, this.markdown.root);
  }

  update(item: AssistantItem): void {
    const thinking = item.thinking && supports(this.ctx.state(), 'thinking') ? item.thinking : '';
    if (!thinking && this.thinking) {
      this.thinking.root.remove();
      this.thinking = undefined;
    }
    if (thinking && !this.thinking) {
      this.thinking = new ThinkingBlock(item.id, this.ctx);
      this.root.insertBefore(this.thinking.root, this.root.firstChild);
    }
    this.thinking?.update(thinking, item.streaming && item.text === '');
    this.markdown.update(item.text, item.streaming);
    const waiting = item.streaming && item.text === '' && !thinking;
    if (waiting !== this.typing.isConnected) {
      if (waiting) this.root.appendChild(this.typing);
      else this.typing.remove();
    }
    this.renderCost(item.turnCost);
    // Screen readers hold back announcements of a busy element: the message is read once it is complete.
    // Written only on change: setting an attribute, even to the same value, invalidates style every frame.
    if (item.streaming !== this.root.hasAttribute('aria-busy')) {
      if (item.streaming) this.root.setAttribute('aria-busy', 'true');
      else this.root.removeAttribute('aria-busy');
    }
  }

  /** The finished turn's figures: its requests' tokens, and its estimated cost when every price is known. */
  private renderCost(cost: TurnCost | undefined): void {
    if (cost === this.shownCost) return;
    this.shownCost = cost;
    this.costLine?.remove();
    this.costLine = cost ? turnCostLine(cost) : undefined;
    if (this.costLine) this.root.appendChild(this.costLine);
  }
}

function turnCostLine(cost: TurnCost): HTMLElement {
  const tokens = `↑${formatTokens(cost.tokensIn)} ↓${formatTokens(cost.tokensOut)}`;
  const parts =
    cost.requests === undefined ? [`last request ${tokens}`] : [tokens, cost.requests === 1 ? '1 request' : `${cost.requests} requests`];
  if (cost.usd !== null) parts.unshift(formatUsd(cost.usd));
  const attrs: Record<string, string> = {
    class: 'turn-cost',
    'data-testid': TEST_IDS.turnCost,
    title: cost.usd === null ? 'This turn: tokens (a price is unknown, so no cost)' : 'This turn: estimated cost and tokens',
  };
  if (cost.usd !== null) attrs['data-usd'] = String(cost.usd);
  return h('div', attrs, parts.join(' · '));
}

class ThinkingBlock {
  readonly root: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly body: HTMLElement;
  private readonly text: Text;
  private shown = '';
  private content = '';
  /** The `open` value we set ourselves: its toggle event is not the user's choice. */
  private programmaticOpen: boolean | undefined;

  constructor(
    private readonly id: string,
    private readonly ctx: ItemContext,
  ) {
    this.label = h('span', { class: 'thinking-label' }, 'Thinking');
    this.text = document.createTextNode('');
    this.body = h('div', { class: 'thinking-body' }, this.text);
    this.root = h(
      'details',
      { class: 'thinking', 'data-testid': TEST_IDS.thinking },
      h('summary', {}, codicon('lightbulb'), this.label),
      this.body,
    );
    this.root.addEventListener('toggle', () => {
      if (this.root.open === this.programmaticOpen) {
        this.programmaticOpen = undefined;
      } else {
        this.ctx.ui.setExpanded(this.key, this.root.open);
      }
      this.renderBody();
    });
  }

  private get key(): string {
    return `thinking:${this.id}`;
  }

  update(thinking: string, onlyThinking: boolean): void {
    this.content = thinking;
    this.label.textContent = onlyThinking ? 'Thinking…' : 'Thought process';
    const open = this.ctx.ui.expandedChoice(this.key) ?? onlyThinking;
    if (open !== this.root.open) {
      this.programmaticOpen = open;
      this.root.open = open;
    }
    this.renderBody();
  }

  /** The body is only kept current while open: a closed block costs nothing per frame. */
  private renderBody(): void {
    if (!this.root.open || this.shown === this.content) return;
    if (startsWithText(this.content, this.shown)) this.text.appendData(this.content.slice(this.shown.length));
    else this.text.data = this.content;
    this.shown = this.content;
  }
}
