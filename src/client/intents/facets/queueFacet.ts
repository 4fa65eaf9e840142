import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { ServerQueueControl } from '../../channel/coreChannel';
import type { IntentContext } from '../intentContext';

export type QueueIntents = ReturnType<typeof queueFacet>;

/**
 * The prompts waiting for their turn. Every core clears its queue; a server-side queue (SCV, capability `server_queue`)
 * is also edited, reordered and paused, each refused with a notice when the prompt is no longer queued.
 */
export function queueFacet(ctx: IntentContext) {
  /** The server's queue control, when the core has one; tells the user otherwise. */
  const serverQueue = (): ServerQueueControl | undefined => {
    if (!ctx.requireReady()) return undefined;
    const queue = ctx.core.channel?.serverQueue;
    if (queue && ctx.announces(UI_CAPABILITIES.serverQueue)) return queue;
    ctx.refuse('This core has no editable queue.');
    return undefined;
  };
  const isQueued = (id: string): boolean => ctx.state.serverQueue?.entries.some((entry) => entry.id === id) ?? false;
  /** As serverQueue(), and `id` must still be waiting in it. */
  const queueFor = (id: string): ServerQueueControl | undefined => {
    const queue = serverQueue();
    if (!queue) return undefined;
    if (typeof id === 'string' && isQueued(id)) return queue;
    ctx.refuse('That prompt is no longer queued.');
    return undefined;
  };

  return {
    clearQueue(): boolean {
      return ctx.sendWhenReady({ type: 'clear_queue' });
    },

    /** Replaces the text of a prompt waiting in the server's queue. */
    editQueued(id: string, prompt: string): boolean {
      if (typeof prompt !== 'string' || !prompt.trim()) return ctx.refuse('A queued prompt cannot be empty; remove it instead.');
      const queue = queueFor(id);
      if (!queue || !ctx.withinPromptLimit(prompt)) return false;
      ctx.log(`→ queue edit ${id}`);
      return queue.edit(id, prompt);
    },

    /** Moves a queued prompt before `beforeId`, or to the end with null. */
    moveQueued(id: string, beforeId: string | null): boolean {
      const queue = queueFor(id);
      if (!queue) return false;
      if (beforeId === id) return false;
      if (beforeId !== null && !isQueued(beforeId)) return ctx.refuse('That place in the queue is gone; the queue changed meanwhile.');
      ctx.log(`→ queue move ${id} before ${beforeId ?? 'the end'}`);
      return queue.move(id, beforeId);
    },

    removeQueued(id: string): boolean {
      const queue = queueFor(id);
      if (!queue) return false;
      ctx.log(`→ queue remove ${id}`);
      return queue.remove(id);
    },

    /** Holds (or releases) the server's queue: a paused queue starts no queued prompt; the running turn goes on. */
    pauseQueue(paused: boolean): boolean {
      if (typeof paused !== 'boolean') return ctx.refuse('Pause takes true or false.');
      const queue = serverQueue();
      if (!queue) return false;
      ctx.log(`→ queue ${paused ? 'pause' : 'resume'}`);
      return queue.pause(paused);
    },
  };
}
