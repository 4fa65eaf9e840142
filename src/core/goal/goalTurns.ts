/**
 * The goal's own turns in the session's turn slot (upstream's `start_goal_parent_turn`, research A:886-905): the planning
 * turn, the CEO self-review and verify turns, and the classic wrap-up. A follow-up turn waits a bounded time for the slot
 * (the plan's D3) so a user's own turn is never cancelled for it.
 */
import type { ChatMessage } from '../providers/types';
import type { RunScope } from '../runtime/runScope';
import type { AskQuestion } from '../tools/types';
import { CEO_ASK_ANSWER } from './ceoPrompts';
import type { GoalController } from './goalController';
import type { GoalTurnRequest } from './goalHost';

/** How long a follow-up turn waits for the session's turn slot (upstream: 120 × 25 ms). */
export const TURN_SLOT_WAIT_MS = 3000;
const SLOT_POLL_MS = 25;

export interface GoalTurnSpec {
  prompt: string;
  /** Default: the goal's parent model when the registry knows it, else the goal's model. */
  model?: string;
  extras?: Pick<GoalTurnRequest, 'tools' | 'toolContext'>;
  /** When the turn has ended (before its `done`): its scope (cancelled or not) and its last assistant text. */
  onEnd(scope: RunScope, lastText: string): void;
}

/** Resolves true once no turn runs, or false when one still runs after `waitMs`. */
export async function waitForTurnSlot(ctl: GoalController, waitMs = TURN_SLOT_WAIT_MS): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (ctl.host.activeRun()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
  }
  return true;
}

/** The model a goal turn runs on: the parent model if listed (or nothing is listed), else the goal's own. */
export function goalTurnModel(ctl: GoalController): string {
  const goal = ctl.goal!;
  const known = ctl.host.knownModels();
  return known.length === 0 || known.includes(goal.parentModel) ? goal.parentModel : goal.settings.model;
}

/** Starts the turn; false when it could not start (the host has then said why, with `done`). */
export function startGoalTurn(ctl: GoalController, spec: GoalTurnSpec): boolean {
  const { host } = ctl;
  const goal = ctl.goal!;
  const ceo = goal.settings.ceoMode ? { ask: answerCeoAsk } : {};
  const started = host.startTurn({
    prompt: spec.prompt,
    model: spec.model ?? goalTurnModel(ctl),
    reasoningEffort: goal.settings.reasoningEffort,
    tools: spec.extras?.tools,
    toolContext: { ...ceo, ...spec.extras?.toolContext },
    onEnd: (scope) => {
      if (ctl.turn !== scope) return;
      try {
        spec.onEnd(scope, lastAssistantText(host.messages()));
      } finally {
        if (ctl.turn === scope) ctl.turn = undefined;
      }
    },
  });
  if (started) ctl.turn = started;
  return !!started;
}

/** In a CEO turn nobody answers `ask`: every question gets the same fixed answer, at once. */
async function answerCeoAsk(questions: AskQuestion[]): Promise<Record<string, string>> {
  return Object.fromEntries(questions.map((q) => [q.id, CEO_ASK_ANSWER]));
}

/** The text of the last assistant message since the last user message ('' when the turn said nothing). */
export function lastAssistantText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return '';
    if (m.role !== 'assistant') continue;
    const text = typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => ('text' in p ? String(p.text) : '')).join('');
    if (text.trim()) return text;
  }
  return '';
}
