import { UI_CAPABILITIES, type ApprovalEscalations, type ApprovalMode } from '../../../shared/sessionState';
import { isApprovalMode } from '../../state/reduceCore';
import type { IntentContext } from '../intentContext';

export type ApprovalIntents = ReturnType<typeof approvalFacet>;

/** When the core asks before a tool runs: the approval mode, and what the session escalated. */
export function approvalFacet(ctx: IntentContext) {
  return {
    setApprovalMode(mode: ApprovalMode): boolean {
      if (!isApprovalMode(mode)) return ctx.refuse('The approval mode is one of: never, destructive, always.');
      if (ctx.kind === 'scv') {
        return ctx.refuse(
          "SCV's approval policy is fixed when the server starts: set catalystCode.scv.approvalPolicy and restart the core.",
        );
      }
      if (!ctx.requireReady()) return false;
      ctx.dispatch({ type: 'client:approval_mode_selected', mode });
      return ctx.send({ type: 'set_approval', mode });
    },

    /**
     * The session's escalations for the approval-mode picker: our core's list (`list_approval_escalations`, or
     * `clear_approval_escalations` first with `clear`); another core's are those the state saw happen. Undefined when
     * the core cannot answer.
     */
    approvalEscalations(clear = false): Promise<ApprovalEscalations | undefined> {
      if (!ctx.can(UI_CAPABILITIES.approvalEscalations)) {
        if (clear) ctx.refuse('This core cannot clear escalations: start a new session, or restart the core for the allow rules.');
        return Promise.resolve(clear ? undefined : (ctx.state.approvalEscalations ?? { kinds: [], patterns: [] }));
      }
      if (!ctx.requireReady()) return Promise.resolve(undefined);
      const cmd = { type: clear ? 'clear_approval_escalations' : 'list_approval_escalations' } as const;
      return ctx.nextAnswer(cmd, ['approval_escalations']).then((e) => (e ? ctx.state.approvalEscalations : undefined));
    },
  };
}
