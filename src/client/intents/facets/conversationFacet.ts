import type { CommandOf } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { IntentContext } from '../intentContext';

export type ConversationIntents = ReturnType<typeof conversationFacet>;

/** What happens to the open conversation: undoing a turn, compacting, clearing. */
export function conversationFacet(ctx: IntentContext) {
  return {
    /** Undoes the last turn and restores its files. */
    undo(): boolean {
      return ctx.sendIfAnnounced(UI_CAPABILITIES.undo, 'undo', { type: 'undo' });
    },

    /** Summarizes older turns, following `instructions` when given. */
    compact(instructions?: string): boolean {
      const cmd: CommandOf<'compact'> = { type: 'compact' };
      if (instructions?.trim()) cmd.instructions = instructions.trim();
      return ctx.sendWhenReady(cmd);
    },

    /** Clears the conversation; the session file is kept. */
    clear(): boolean {
      return ctx.sendWhenReady({ type: 'clear' });
    },

    /** Clears the conversation and wipes the session file. */
    reset(): boolean {
      return ctx.sendWhenReady({ type: 'reset' });
    },
  };
}
