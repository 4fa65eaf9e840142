import type { CommandOf } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { IntentContext } from '../intentContext';

export type TurnIntents = ReturnType<typeof turnFacet>;

/** The user's turns: prompts, steering, aborting, and the shell commands typed in the chat. */
export function turnFacet(ctx: IntentContext) {
  /** The model's provider, named with the model. */
  const providerOf = (model: string): { provider?: string } => {
    const provider = ctx.state.models.find((m) => m.id === model)?.provider;
    return provider ? { provider } : {};
  };

  return {
    /**
     * While a run is going, a Catalyst core queues one prompt (shown as `run.queued`); a core with a server-side queue
     * (SCV) queues any number and shows them in `serverQueue`, and its adapter reports the prompt when its turn starts.
     */
    sendPrompt(text: string, images: string[] = []): boolean {
      if (typeof text !== 'string' || !text.trim()) return ctx.refuse('Type a message first.');
      if (!ctx.requireReady() || !ctx.withinPromptLimit(text)) return false;
      const model = ctx.requireModel(ctx.state.model);
      if (!model) return false;
      if (ctx.core.holdsPrompts) return ctx.core.holdPrompt(text, images);
      const busy = ctx.state.run.status !== 'idle';
      const serverQueue = ctx.announces(UI_CAPABILITIES.serverQueue);
      if (busy && !serverQueue && ctx.state.run.queued !== undefined) {
        return ctx.refuse('A prompt is already queued. Wait for this turn, steer it, or clear the queue.');
      }
      // A server that keeps the queue decides whether the prompt runs now or waits: the adapter shows it when it runs.
      if (!serverQueue) ctx.dispatch({ type: 'client:prompt', text, images: images.length });
      const cmd: CommandOf<'send'> = {
        type: 'send',
        prompt: text,
        model,
        reasoning_effort: ctx.state.reasoningEffort,
        ...providerOf(model),
      };
      if (images.length) cmd.images = [...images];
      return ctx.send(cmd);
    },

    steer(text: string): boolean {
      if (typeof text !== 'string' || !text.trim()) return ctx.refuse('/steer needs the new instructions.');
      if (!ctx.requireReady() || !ctx.requireCapability(UI_CAPABILITIES.steer, 'steering')) return false;
      const model = ctx.requireModel(ctx.state.model);
      if (!model) return false;
      return ctx.send({ type: 'steer', prompt: text, model, reasoning_effort: ctx.state.reasoningEffort, ...providerOf(model) });
    },

    abort(): boolean {
      return ctx.sendWhenReady({ type: 'abort' });
    },

    /** `!cmd` / `!!cmd` (excludeFromContext): the core runs the user's own command in the workspace (no approval) and answers bash_execution. */
    userBash(command: string, excludeFromContext = false): boolean {
      const text = typeof command === 'string' ? command.trim() : '';
      if (!text) return ctx.refuse('Type a shell command after ! (or !! to keep its output out of the context).');
      if (!ctx.requireReady()) return false;
      if (!ctx.can(UI_CAPABILITIES.userBash)) return ctx.refuse('An SCV server does not run shell commands typed in the chat.');
      // Both cores refuse user_bash during a run; saying so here keeps the text's fate clear.
      if (ctx.state.run.status !== 'idle') return ctx.refuse('A turn is running: run the shell command after it finishes.');
      const cmd: CommandOf<'user_bash'> = { type: 'user_bash', command: text };
      if (excludeFromContext) cmd.exclude_from_context = true;
      return ctx.send(cmd);
    },
  };
}
