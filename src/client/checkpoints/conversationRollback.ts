// A checkpoint row in the chat and the conversation around it: which prompt a checkpoint's run answered, and how many
// turns an `undo`-based rollback to it takes.
import type { TranscriptItem } from '../../shared/sessionState';

/** The prompt of the turn a run belongs to: the last user message before the run's first item. */
export function promptOfRun(items: readonly TranscriptItem[], runId: string): string | undefined {
  const first = items.findIndex((i) => 'runId' in i && i.runId === runId);
  if (first < 0) return undefined;
  for (let i = first; i >= 0; i--) {
    const item = items[i];
    if (item.kind === 'user') return item.text;
  }
  return undefined;
}

/**
 * How many turns (user messages) an `undo`-based rollback to the checkpoint removes: `undo` drops one turn at a time.
 * An automatic checkpoint (it has a run) was taken inside its turn, before the turn's first edit, so its own turn goes
 * too — as with Undo Last Turn; a manual one was taken between turns, so only the turns after it go. Undefined when the
 * transcript no longer shows the checkpoint (or the prompt of its turn).
 */
export function turnsSinceCheckpoint(items: readonly TranscriptItem[], checkpointId: string): number | undefined {
  const at = items.findIndex((i) => i.kind === 'checkpoint' && i.id === checkpointId);
  if (at < 0) return undefined;
  const item = items[at];
  let start = at + 1;
  if (item.kind === 'checkpoint' && item.runId !== undefined) {
    start = -1;
    for (let i = at; i >= 0; i--) {
      if (items[i].kind === 'user') {
        start = i;
        break;
      }
    }
    if (start < 0) return undefined;
  }
  let turns = 0;
  for (let i = start; i < items.length; i++) if (items[i].kind === 'user') turns++;
  return turns;
}

export type ChatRestoreMode = 'files' | 'conversation' | 'both';

export interface ChatRestoreOption {
  mode: ChatRestoreMode;
  label: string;
  detail: string;
  /** Why it cannot be chosen now. */
  unavailable?: string;
}

export interface ChatRestoreContext {
  /** Turns to undo (see `turnsSinceCheckpoint`); undefined when unknown. */
  turns: number | undefined;
  /** The core has `undo`. */
  canUndo: boolean;
  /** A turn is running (the core refuses restores then). */
  running: boolean;
  /** The checkpoint was deleted. */
  deleted: boolean;
}

/** The chat row's Restore choices, each with what it does or why it is unavailable. */
export function chatRestoreOptions(c: ChatRestoreContext): ChatRestoreOption[] {
  const turnsText = c.turns === undefined ? '' : c.turns === 1 ? 'the last turn' : `the last ${c.turns} turns`;
  const common = c.deleted ? 'The checkpoint was deleted.' : c.running ? 'A turn is running: stop it first.' : undefined;
  const conversationBlock =
    common ??
    (!c.canUndo
      ? 'This core cannot roll back the conversation.'
      : c.turns === undefined
        ? 'The chat no longer shows the turn this checkpoint belongs to.'
        : c.turns === 0
          ? 'No turn came after this checkpoint.'
          : undefined);
  return [
    {
      mode: 'files',
      label: 'Restore Files Only',
      detail: 'Files go back to the checkpoint; the conversation stays as it is.',
      unavailable: common,
    },
    {
      mode: 'conversation',
      label: 'Restore Conversation Only',
      detail: `Removes ${turnsText || 'the turns since the checkpoint'} from the conversation; your files stay as they are now (they are checkpointed first and put back).`,
      unavailable: conversationBlock,
    },
    {
      mode: 'both',
      label: 'Restore Files and Conversation',
      detail: `Removes ${turnsText || 'the turns since the checkpoint'} and puts the files back to the checkpoint.`,
      unavailable: conversationBlock,
    },
  ];
}
