import { APPROVAL_DECISIONS, type ApprovalDecision, type CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';

/** `approve`: answers a pending approval; unknown decisions deny (upstream); stale or unknown ids are errors. */
export function handleApprove(rt: CoreRuntime, cmd: CommandOf<'approve'>): void {
  if (typeof cmd.request_id !== 'string')
    return void rt.emit({ type: 'error', code: 'invalid_command', message: 'approve needs a request_id' });
  const decision = (APPROVAL_DECISIONS as readonly string[]).includes(cmd.decision as string) ? (cmd.decision as ApprovalDecision) : 'no';
  const result = rt.approvals.broker.answer(cmd.request_id, {
    decision,
    pattern: typeof cmd.pattern === 'string' && cmd.pattern ? cmd.pattern : undefined,
    editedContent: typeof cmd.edited_content === 'string' ? cmd.edited_content : undefined,
  });
  if (!result.ok) rt.emit({ type: 'error', code: 'stale_approval', message: result.message });
}

export function handleAskReply(rt: CoreRuntime, cmd: CommandOf<'ask_reply'>): void {
  const answers =
    cmd.answers && typeof cmd.answers === 'object' && !Array.isArray(cmd.answers)
      ? stringValues(cmd.answers as Record<string, unknown>)
      : null;
  if (!rt.interactions.replyAsk(String(cmd.request_id), answers)) {
    rt.emit({ type: 'error', code: 'stale_ask', message: `no pending ask for id ${String(cmd.request_id)}` });
  }
}

export function handleSudoReply(rt: CoreRuntime, cmd: CommandOf<'sudo_reply'>): void {
  const approved = cmd.approved === true;
  const password = approved && typeof cmd.password === 'string' ? cmd.password : undefined;
  if (!rt.interactions.replySudo(String(cmd.request_id), { approved, password })) {
    rt.emit({ type: 'error', code: 'stale_sudo', message: `no pending sudo request for id ${String(cmd.request_id)}` });
  }
}

/** `intercom_reply`: answers a subagent's pending ask (contact_supervisor, or an intercom ask to the orchestrator). */
export function handleIntercomReply(rt: CoreRuntime, cmd: CommandOf<'intercom_reply'>): void {
  const id = String(cmd.request_id);
  const reply = typeof cmd.reply === 'string' ? cmd.reply : '';
  if (rt.intercom.reply(id, reply)) rt.emit({ type: 'info', message: 'reply delivered to subagent' });
  else rt.emit({ type: 'error', code: 'stale_intercom', message: `no pending intercom ask for id ${id}` });
}

function stringValues(o: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}
