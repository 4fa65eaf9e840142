/** contact_supervisor: a subagent reports progress to, or asks a decision of, the orchestrator (the user), over the intercom. */
import { type AskOutcome, IntercomError, ORCHESTRATOR } from '../intercom/intercomBus';
import { failed, succeeded } from './outcome';
import { noTargets, stringArgument } from './toolTargets';
import type { ToolDefinition, ToolOutcome } from './types';

export const PROGRESS_UPDATE_SENT = 'progress update sent to supervisor';
/** Upstream's words: a timeout must not read as permission to go ahead. */
export const NEED_DECISION_TIMED_OUT =
  'need_decision timed out after 5 min with no supervisor response; do NOT proceed with the unapproved decision — re-ask, simplify, or escalate.';

/** What a need_decision gets while a goal runs: nobody is there to answer (our words for upstream's fixed text). */
export const NEED_DECISION_AUTO_RESOLVED =
  'No supervisor is watching this goal run, so nobody will answer. Make the most reasonable decision yourself, say which one ' +
  'you made in your result, and do not ask again.';

export const contactSupervisorTool: ToolDefinition = {
  name: 'contact_supervisor',
  kind: 'readonly',
  audience: 'child',
  schema: {
    name: 'contact_supervisor',
    description:
      'Contact the supervisor that delegated your task. reason "need_decision" asks a question and waits for the answer ' +
      '(use it before a decision you are not authorised to make); "progress_update" reports progress and returns at once.',
    parameters: {
      type: 'object',
      properties: {
        reason: { type: 'string', enum: ['need_decision', 'progress_update'], description: 'Why you are contacting the supervisor.' },
        message: { type: 'string', description: 'The question or the update, self-contained.' },
      },
      required: ['reason', 'message'],
    },
  },
  targets: noTargets,
  async execute(args, ctx) {
    const message = stringArgument(args, 'message') ?? '';
    if (!message) return failed("contact_supervisor requires a 'message'");
    if (!ctx.intercom) return failed('contact_supervisor is only available to subagents');
    const { bus, target } = ctx.intercom;
    const reason = stringArgument(args, 'reason') || 'need_decision';
    try {
      if (reason === 'progress_update') {
        bus.send(target, ORCHESTRATOR, message, reason);
        return succeeded(PROGRESS_UPDATE_SENT);
      }
      if (reason === 'need_decision' && bus.autoResolveDecision?.(target, message)) return succeeded(NEED_DECISION_AUTO_RESOLVED);
      return askOutcome(await bus.ask(target, ORCHESTRATOR, message, reason, ctx.signal).outcome, NEED_DECISION_TIMED_OUT);
    } catch (error) {
      if (error instanceof IntercomError) return failed(error.message);
      throw error;
    }
  },
};

/** What a blocking ask's tool returns: the reply verbatim, ok markers when woken otherwise, `timedOut` as an error. */
export function askOutcome(outcome: AskOutcome, timedOut: string): ToolOutcome {
  switch (outcome.kind) {
    case 'reply':
      return succeeded(outcome.text);
    case 'interrupted':
      return succeeded('[interrupted]');
    case 'agent_finished':
      return succeeded('[agent finished]');
    case 'session_replaced':
      return succeeded('[session replaced]');
    case 'timed_out':
      return failed(timedOut, 'timed_out');
  }
}
