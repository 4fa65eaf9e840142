import type { ServerQueueEntry, SessionState } from '../../src/shared/sessionState';
import { MAX_TEXT } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';

/** Lines and characters of a queued prompt shown in its row; the full text is in the row's tooltip and editor. */
export const PREVIEW_LINES = 3;
export const PREVIEW_CHARS = 300;

export interface QueueRowModel {
  id: string;
  revision: number;
  /** 1-based place in the queue. */
  position: number;
  prompt: string;
  preview: string;
  clipped: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
}

export interface QueuePanelModel {
  title: string;
  paused: boolean;
  /** Shown while paused: why nothing starts. */
  hint?: string;
  rows: QueueRowModel[];
}

/**
 * What the server-queue panel shows, or undefined when it is hidden: only for a core with a server-side queue, and only
 * while that queue has entries or is paused (paused and empty still shows, so the user can resume).
 */
export function queuePanelModel(state: SessionState): QueuePanelModel | undefined {
  const queue = state.serverQueue;
  if (!queue || !supports(state, 'server_queue')) return undefined;
  if (queue.entries.length === 0 && !queue.paused) return undefined;
  const last = queue.entries.length - 1;
  const rows = queue.entries.map((entry, i): QueueRowModel => {
    const { text, clipped } = promptPreview(entry.prompt);
    return {
      id: entry.id,
      revision: entry.revision,
      position: i + 1,
      prompt: entry.prompt,
      preview: text,
      clipped,
      canMoveUp: i > 0,
      canMoveDown: i < last,
    };
  });
  const model: QueuePanelModel = { title: `Queued on the server (${rows.length})`, paused: queue.paused, rows };
  if (queue.paused)
    model.hint = rows.length
      ? 'Paused: queued prompts wait until you resume.'
      : 'Paused: prompts sent while a turn runs wait until you resume.';
  return model;
}

/** The first lines of a prompt, cut at a character budget; `clipped` when anything was left out. */
export function promptPreview(prompt: string, maxLines = PREVIEW_LINES, maxChars = PREVIEW_CHARS): { text: string; clipped: boolean } {
  const lines = prompt.split('\n');
  let text = lines.slice(0, maxLines).join('\n');
  let clipped = lines.length > maxLines;
  if (text.length > maxChars) {
    text = text.slice(0, maxChars);
    clipped = true;
  }
  return { text: clipped ? `${text.trimEnd()}…` : text, clipped };
}

/**
 * The `queueMove` that moves entry `id` one place up or down: `beforeId` is the entry it must end up before (null: the
 * end). Undefined when it cannot move that way (first/last, or no longer queued).
 */
export function moveTarget(
  entries: readonly ServerQueueEntry[],
  id: string,
  direction: 'up' | 'down',
): { id: string; beforeId: string | null } | undefined {
  const i = entries.findIndex((e) => e.id === id);
  if (i < 0) return undefined;
  if (direction === 'up') return i > 0 ? { id, beforeId: entries[i - 1].id } : undefined;
  if (i >= entries.length - 1) return undefined;
  return { id, beforeId: i + 2 < entries.length ? entries[i + 2].id : null };
}

export type EditOutcome = { kind: 'unchanged' } | { kind: 'empty' } | { kind: 'tooLong' } | { kind: 'save'; prompt: string };

/** What saving an edited queued prompt does: nothing when the text is the same (whitespace at the ends aside). */
export function editOutcome(original: string, draft: string): EditOutcome {
  const prompt = draft.trim();
  if (prompt === original.trim()) return { kind: 'unchanged' };
  if (prompt === '') return { kind: 'empty' };
  if (prompt.length > MAX_TEXT) return { kind: 'tooLong' };
  return { kind: 'save', prompt };
}

/** What the composer's send button says: while a run is going it queues, on the server when the core has a queue. */
export function sendButtonText(running: boolean, serverQueue: boolean): { label: string; title: string; ariaLabel?: string } {
  if (!running) return { label: 'Send', title: 'Send (Enter)' };
  if (serverQueue)
    return {
      label: 'Queue',
      ariaLabel: 'Queue on the server',
      title: 'Queue on the server (Enter): it runs after the current turn; edit, reorder or remove it in the queue above',
    };
  return { label: 'Queue', title: 'Queue this prompt to run after the current turn (Enter)' };
}
