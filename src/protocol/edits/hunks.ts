/** Per-hunk review: the hunks between two versions of a file, and undoing one of them. */
import { structuredPatch } from 'diff';
import { splitLinesKeepEol } from './lines';
import { DIFF_CONTEXT_LINES } from './unifiedDiff';

/**
 * One hunk of the diff old → new, numbered from 0. Starts are 1-based and written as in the hunk's "@@" header: for
 * an empty side (oldLines or newLines 0) the start is the line BEFORE the insertion point. `lines` are the hunk's
 * body lines (' ', '-', '+' prefixed, plus "\ No newline at end of file" markers).
 */
export interface Hunk {
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export function computeHunks(oldText: string, newText: string): Hunk[] {
  if (oldText === newText) return [];
  const { hunks } = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: DIFF_CONTEXT_LINES });
  return hunks.map((hunk, index) => ({
    index,
    oldStart: hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines,
  }));
}

/**
 * `newText` with hunk `hunkIndex`'s change undone: its new-side lines are replaced by the exact old-side lines
 * (line endings included), so every other hunk stays as it is. Throws RangeError for an index with no hunk.
 */
export function revertHunk(oldText: string, newText: string, hunkIndex: number): string {
  const hunk = computeHunks(oldText, newText)[hunkIndex];
  if (!hunk) throw new RangeError(`no hunk ${hunkIndex} in this diff`);
  const oldLines = splitLinesKeepEol(oldText);
  const newLines = splitLinesKeepEol(newText);
  const oldFrom = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
  const newFrom = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
  return [
    ...newLines.slice(0, newFrom),
    ...oldLines.slice(oldFrom, oldFrom + hunk.oldLines),
    ...newLines.slice(newFrom + hunk.newLines),
  ].join('');
}
