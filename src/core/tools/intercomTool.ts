/** intercom: a subagent's messages to its peers (and the orchestrator) over the session's intercom, in upstream's words. */
import { IntercomError } from '../intercom/intercomBus';
import { askOutcome } from './contactSupervisorTool';
import { failed, succeeded } from './outcome';
import { noTargets, stringArgument } from './toolTargets';
import type { ToolDefinition, ToolIntercom, ToolOutcome } from './types';

export const PEER_ASK_TIMED_OUT =
  'intercom ask timed out after 5 min with no peer response; do NOT proceed with the unapproved decision — re-ask or pick a different peer.';

type Args = Record<string, unknown>;

export const intercomTool: ToolDefinition = {
  name: 'intercom',
  kind: 'readonly',
  audience: 'child',
  schema: {
    name: 'intercom',
    description:
      'Talk to the other subagents of this session. targets lists them; send posts a message; ask posts a question and ' +
      'waits for the answer; receive (or poll) takes the oldest message addressed to you, or null; reply answers an ask ' +
      'addressed to you by its ask_id. The target "orchestrator" is your supervisor.',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['send', 'ask', 'receive', 'poll', 'reply', 'targets'] },
        to: { type: 'string', description: 'The target (send, ask).' },
        message: { type: 'string', description: 'The message or question (send, ask).' },
        reason: { type: 'string', description: 'Why (send, ask); ask defaults to need_decision.' },
        id: { type: 'string', description: 'The ask_id to answer (reply).' },
        reply: { type: 'string', description: 'The answer (reply).' },
      },
      required: ['action'],
    },
  },
  targets: noTargets,
  async execute(args, ctx) {
    if (!ctx.intercom) return failed('intercom is only available to subagents');
    const action = stringArgument(args, 'action') || 'send';
    try {
      return await runAction(action, args, ctx.intercom, ctx.signal);
    } catch (error) {
      if (error instanceof IntercomError) return failed(error.message);
      throw error;
    }
  },
};

async function runAction(action: string, args: Args, { bus, target }: ToolIntercom, signal: AbortSignal): Promise<ToolOutcome> {
  const to = stringArgument(args, 'to') ?? '';
  const message = stringArgument(args, 'message') ?? '';
  switch (action) {
    case 'targets':
      return succeeded(JSON.stringify(bus.targets()));
    case 'receive':
    case 'poll':
      return succeeded(JSON.stringify(bus.receive(target) ?? null));
    case 'send':
      if (!to || !message) return failed("intercom send requires 'to' and 'message'");
      bus.send(target, to, message, stringArgument(args, 'reason') ?? '');
      return succeeded(`message sent to ${to}`);
    case 'ask': {
      if (!to || !message) return failed("intercom ask requires 'to' and 'message'");
      const reason = stringArgument(args, 'reason') || 'need_decision';
      return askOutcome(await bus.ask(target, to, message, reason, signal).outcome, PEER_ASK_TIMED_OUT);
    }
    case 'reply': {
      const id = stringArgument(args, 'id') ?? '';
      if (!id) return failed("intercom reply requires 'id' (the ask id) and 'reply'");
      if (bus.reply(id, stringArgument(args, 'reply') ?? '', target)) return succeeded(`replied to ask ${id}`);
      return failed(`no pending ask with id '${id}' (it may have timed out or been answered)`);
    }
    default:
      return failed(`unknown intercom action '${action}'; use send|ask|receive|poll|reply|targets`);
  }
}
