/**
 * The note on a user message that says how a model that cannot see got its images, read from the core's `info`:
 * upstream's "vision handoff: A → B (reason)" (the turn went to B) and our "vision describe: A ← B (…)" (B described
 * them for A). Reading the info text, not an event of ours, keeps the note working with upstream's core too.
 */
import type { SessionState, UserItem } from '../../shared/sessionState';
import { findLastIndex, isChildItem, updateItemAt } from './transcript';

/** The note: `label` on the message, `detail` (the core's info) on hover. */
export interface VisionNote {
  label: string;
  detail: string;
}

const HANDOFF = /^vision handoff: (\S+) → (\S+) \(/;
const DESCRIBE = /^vision describe: (\S+) ← (\S+) \(/;

export function visionNoteOf(message: string): VisionNote | undefined {
  const handoff = HANDOFF.exec(message);
  if (handoff) return { label: `→ ${handoff[2]}`, detail: message };
  const describe = DESCRIBE.exec(message);
  if (describe) return { label: `described by ${describe[2]}`, detail: message };
  return undefined;
}

/** Puts a hand-off info on the latest user message with images; undefined when the info is not one (or has no message). */
export function reduceVisionInfo(s: SessionState, message: string): SessionState | undefined {
  const note = visionNoteOf(message);
  if (!note) return undefined;
  const index = findLastIndex(s.items, (item) => item.kind === 'user' && !isChildItem(item));
  if (index < 0) return undefined;
  return updateItemAt<UserItem>(s, index, { vision: note });
}
