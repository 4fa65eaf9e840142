import { str } from '../../state/eventFields';
import type { IntentContext } from '../intentContext';
import { memoryEntries, type MemoryView } from '../memoryEntries';

export type MemoryIntents = ReturnType<typeof memoryFacet>;

/** The core's durable notes about this workspace. */
export function memoryFacet(ctx: IntentContext) {
  return {
    /** `/memory <text>`: a note the agent remembers in this workspace. */
    saveMemory(text: string): boolean {
      if (!text.trim()) return ctx.refuse('/memory needs the note to save.');
      return ctx.sendWhenReady({ type: 'save_memory', text: text.trim() });
    },

    /** The core's notes (its next `memory_list` answer), undefined when it cannot say. */
    fetchMemory(): Promise<MemoryView[] | undefined> {
      if (!ctx.requireReady()) return Promise.resolve(undefined);
      return ctx
        .nextAnswer({ type: 'list_memory' }, ['memory_list'])
        .then((e) => (e?.type === 'memory_list' ? memoryEntries(e.entries) : undefined));
    },

    /** `forget_memory`; resolves with the core's answer (memory_saved's message), undefined when it cannot answer. */
    forgetMemory(id: string): Promise<string | undefined> {
      if (typeof id !== 'string' || !id) return Promise.resolve(undefined);
      if (!ctx.requireReady()) return Promise.resolve(undefined);
      return ctx
        .nextAnswer({ type: 'forget_memory', id }, ['memory_saved'])
        .then((e) => (e?.type === 'memory_saved' ? (str(e.message) ?? '') : undefined));
    },

    /** `refresh_memory`: the core rereads its notes from disk (edited by hand or by another core). */
    refreshMemory(): boolean {
      return ctx.sendWhenReady({ type: 'refresh_memory' });
    },
  };
}
