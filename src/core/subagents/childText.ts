/** What a child says and is told: capped texts for events, its final text, the bridge instructions. */
import { ORCHESTRATOR } from '../intercom/intercomBus';
import { capChars, NO_SUMMARY, SUMMARY_CHARS } from '../platform/textCaps';
import type { ChatMessage } from '../providers/types';

export const MESSAGE_BYTES = 16000;
export const RESULT_BYTES = 8000;

/** Instructions of the intercom bridge, appended to a child's system prompt. */
export function bridgeText(target: string): string {
  return [
    `You are a subagent; your intercom target is '${target}'. Your supervisor is '${ORCHESTRATOR}'.`,
    'Any inherited parent context is for reference only: your task is the last message.',
    'Use contact_supervisor with reason "need_decision" before a decision you are not authorised to make (then wait for the reply), and "progress_update" to report progress; intercom is for messages to your peers.',
  ].join('\n');
}

export function lastAssistantText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && typeof m.content === 'string' && m.content.trim()) return m.content;
  }
  return '';
}

export function answerRemaining(messages: ChatMessage[], calls: { id: string; name: string }[], text: string): void {
  for (const c of calls)
    messages.push({ role: 'tool', tool_call_id: c.id, content: text.startsWith('was') ? `tool call '${c.name}' ${text}` : text });
}

/** A run's `subagent_done.summary`: its output, trimmed and capped; never blank. */
export function runSummary(output: string): string {
  return capChars(output.trim() || NO_SUMMARY, SUMMARY_CHARS);
}
