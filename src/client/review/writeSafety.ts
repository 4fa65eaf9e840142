/**
 * Checks before answering an approval from the diff editor: did the file change on disk since the preview was built,
 * does an open editor of it hold unsaved changes, and — when it did change — can the user's version be carried over.
 */
import { applyPatch, structuredPatch } from 'diff';

export type PreAnswerCheck = { kind: 'ok' } | { kind: 'changed_on_disk' } | { kind: 'dirty_buffer' };

/**
 * previewBase: the disk text the preview was built on (null = the file was absent); diskNow likewise; bufferDirty: an
 * open editor of the real file has unsaved changes. changed_on_disk wins over dirty_buffer. The comparison is exact:
 * a CRLF/LF difference, or a file created or deleted (even an empty one), is a change.
 */
export function checkBeforeAnswer(input: { previewBase: string | null; diskNow: string | null; bufferDirty: boolean }): PreAnswerCheck {
  if (input.previewBase !== input.diskNow) return { kind: 'changed_on_disk' };
  if (input.bufferDirty) return { kind: 'dirty_buffer' };
  return { kind: 'ok' };
}

/**
 * Three-way: replays the change oldBase → changed onto newBase (jsdiff structuredPatch/applyPatch with 3 context
 * lines, exact: no fuzz, no line-ending conversion). undefined on conflict — including when both sides created a file
 * from nothing with different content. rebaseChange(b, c, b) === c.
 */
export function rebaseChange(oldBase: string, changed: string, newBase: string): string | undefined {
  if (oldBase === newBase) return changed;
  if (oldBase === changed) return newBase;
  if (changed === newBase) return changed;
  // From an empty base every change is an insertion with no context: it would "apply" anywhere. Both sides wrote
  // a file from scratch and they differ, so there is nothing to merge.
  if (oldBase === '') return undefined;
  const patch = structuredPatch('base', 'changed', oldBase, changed, undefined, undefined, { context: 3 });
  const result = applyPatch(newBase, patch, { fuzzFactor: 0, autoConvertLineEndings: false });
  return result === false ? undefined : result;
}

export type DirtyChoice = 'keep_mine' | 'take_agents' | 'merge';

/** The choices when the real file has unsaved changes: merge only when the core can take edited content. */
export function dirtyChoices(canEditContent: boolean): DirtyChoice[] {
  return canEditContent ? ['keep_mine', 'take_agents', 'merge'] : ['keep_mine', 'take_agents'];
}
