import type { TranscriptItem } from '../../src/shared/sessionState';
import { ApprovalCardView } from '../approvals/approvalCard';
import { AskFormView } from '../approvals/askForm';
import { AssistantMessageView } from './assistantMessageView';
import type { ItemContext, ItemView } from './itemView';
import { BashBlockView, CheckpointRowView, NoticeView, SudoCardView } from './smallItemViews';
import { ToolCardView } from '../tools/toolCard';
import { visibleProgress } from '../tools/toolSummary';
import { UserMessageView } from './userMessageView';
import { IntercomCardView } from '../intercom/intercomCard';
import { isChildItem } from '../subagents/subagentModel';
import { h } from '../infra/dom';

/** The view for an item's kind. */
export function createItemView(item: TranscriptItem, ctx: ItemContext): ItemView {
  switch (item.kind) {
    case 'user':
      return new UserMessageView() as ItemView;
    case 'assistant':
      return new AssistantMessageView(ctx) as ItemView;
    case 'tool':
      return new ToolCardView(ctx, (child) => createItemView(child, ctx)) as ItemView;
    case 'approval':
      return new ApprovalCardView(ctx) as ItemView;
    case 'ask':
      return new AskFormView(ctx) as ItemView;
    case 'sudo':
      return new SudoCardView(ctx) as ItemView;
    case 'notice':
      return new NoticeView(ctx) as ItemView;
    case 'bash':
      return new BashBlockView() as ItemView;
    case 'checkpoint':
      return new CheckpointRowView(ctx) as ItemView;
    case 'intercom':
      return new IntercomCardView(ctx) as ItemView;
    case 'subagent':
      // A run shows as a row of its card's panel (SubagentPanel), never on its own.
      return new HiddenItemView();
  }
}

/** The view of an item in the main flow: a child run's items take no room there (their card's panel shows them). */
export function createMainFlowView(item: TranscriptItem, ctx: ItemContext): ItemView {
  return isChildItem(item) ? new HiddenItemView() : createItemView(item, ctx);
}

class HiddenItemView implements ItemView {
  readonly root = h('div', { class: 'item-hidden', hidden: true });
  update(): void {}
}

/** Identifies an item across patches: a different key at the same index needs a new view. */
export function itemKey(item: TranscriptItem): string {
  return `${item.kind}:${item.id}`;
}

/** A height guess for an item never rendered yet, from its kind and text length at the given width. */
export function estimateItemHeight(item: TranscriptItem, width: number): number {
  const charsPerLine = Math.max(20, Math.floor((width - 40) / 7.2));
  if (isChildItem(item)) return 0;
  const lines = (text: string) => {
    let n = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    return n + Math.floor(text.length / charsPerLine);
  };
  switch (item.kind) {
    case 'user':
      return 36 + lines(item.text) * 19;
    case 'assistant':
      return 20 + lines(item.text) * 20 + (item.thinking ? 30 : 0);
    case 'tool': {
      const progress = visibleProgress(item).length;
      return 40 + (item.files.length ? 26 : 0) + (progress ? 12 + progress * 17 : 0);
    }
    case 'approval':
      return item.state === 'pending' ? 220 : 120;
    case 'ask':
      return 80 + item.questions.length * 60;
    case 'sudo':
      return 100;
    case 'notice':
      return 44;
    case 'bash':
      return 44 + Math.min(lines(item.output), 40) * 17;
    case 'checkpoint':
      return 30;
    case 'subagent':
      return 0;
    case 'intercom':
      return item.state === 'pending' ? 160 : 90;
  }
}
