import type { CommandOf } from '../../../protocol';
import { APPROVAL_DECISIONS, UI_CAPABILITIES, type ApprovalDecision } from '../../../shared/sessionState';
import { perChangeOffReason } from '../../review/perChangeReview';
import type { IntentContext } from '../intentContext';

export type AnswerIntents = ReturnType<typeof answerFacet>;

interface ApproveOptions {
  pattern?: string;
  editedContent?: string;
}

/** The user's answers to what the core asks mid-turn: approvals, questions, sudo, a subagent's intercom. */
export function answerFacet(ctx: IntentContext) {
  const isPending = (kind: 'ask' | 'sudo' | 'intercom', id: string): boolean =>
    ctx.state.items.some((i) => i.kind === kind && i.id === id && i.state === 'pending');

  return {
    approve(requestId: string, decision: ApprovalDecision, opts: ApproveOptions = {}): boolean {
      if (!(APPROVAL_DECISIONS as readonly string[]).includes(decision))
        return ctx.refuse(`Unknown approval decision: ${String(decision)}.`);
      const item = ctx.state.items.find((i) => i.kind === 'approval' && i.id === requestId);
      if (!item || item.kind !== 'approval' || item.state !== 'pending') return ctx.refuse('That approval is no longer pending.');
      if (!ctx.requireReady()) return false;
      const cmd: CommandOf<'approve'> = { type: 'approve', request_id: requestId, decision };
      if (decision === 'allow_pattern') {
        const pattern = opts.pattern?.trim() || item.suggestedPattern;
        if (pattern) cmd.pattern = pattern;
      }
      if (opts.editedContent !== undefined && decision !== 'no') {
        if (!ctx.announces(UI_CAPABILITIES.editedContent)) {
          return ctx.refuse(`${capitalized(perChangeOffReason(ctx.kind))}. Accept or reject the proposal as the model wrote it.`);
        }
        cmd.edited_content = opts.editedContent;
      }
      // Only an edit the core will actually apply counts (a rejection never carries edited_content).
      // Marked answered only once the core took it: an adapter may refuse a decision its server cannot express.
      if (!ctx.send(cmd)) return false;
      ctx.dispatch({
        type: 'client:approval_answered',
        requestId,
        decision,
        ...(cmd.edited_content !== undefined ? { edited: true } : {}),
      });
      return true;
    },

    askReply(requestId: string, answers: Record<string, string> | null): boolean {
      if (!isPending('ask', requestId)) return ctx.refuse('That question is no longer open.');
      if (!ctx.requireReady()) return false;
      ctx.dispatch({ type: 'client:ask_answered', requestId, answers });
      return ctx.send({ type: 'ask_reply', request_id: requestId, answers: answers === null ? null : { ...answers } });
    },

    /** The password goes to the core only: never into the state, a notice or the log. */
    sudoReply(requestId: string, approved: boolean, password?: string): boolean {
      if (!isPending('sudo', requestId)) return ctx.refuse('That sudo request is no longer pending.');
      if (!ctx.requireReady()) return false;
      ctx.dispatch({ type: 'client:sudo_answered', requestId, approved });
      const cmd: CommandOf<'sudo_reply'> = { type: 'sudo_reply', request_id: requestId, approved };
      if (approved && typeof password === 'string') cmd.password = password;
      return ctx.send(cmd);
    },

    /** The answer to a subagent's intercom question; never empty (a child waits on it and would take '' as the decision). */
    intercomReply(id: string, reply: string): boolean {
      const text = typeof reply === 'string' ? reply.trim() : '';
      if (!text) return ctx.refuse('Type a reply for the subagent first.');
      if (!isPending('intercom', id)) return ctx.refuse('That subagent question is no longer open.');
      if (!ctx.requireReady()) return false;
      if (!ctx.send({ type: 'intercom_reply', request_id: id, reply: text })) return false;
      ctx.dispatch({ type: 'client:intercom_replied', id, reply: text });
      return true;
    },
  };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
