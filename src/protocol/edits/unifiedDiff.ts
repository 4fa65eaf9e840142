/** The unified diff shown in approvals, tool results and file_change events (upstream make_unified_diff). */
import { structuredPatch, type StructuredPatchHunk } from 'diff';
import { splitLinesKeepEol } from './lines';

export const DIFF_CONTEXT_LINES = 3;
const MAX_DIFF_BODY_LINES = 4000;
/** Upstream's LCS is O(m·n); past this product it returns a placeholder instead of a diff. We keep the same cut-off. */
const MAX_LINE_PRODUCT = 4_000_000;

/** "--- a/<path>\n+++ b/<path>\n" + hunks with 3 context lines; "" when the texts are identical. */
export function makeUnifiedDiff(path: string, oldText: string, newText: string): string {
  if (oldText === newText) return '';
  const header = `--- a/${path}\n+++ b/${path}\n`;
  const oldLines = splitLinesKeepEol(oldText).length;
  const newLines = splitLinesKeepEol(newText).length;
  if (oldLines * newLines > MAX_LINE_PRODUCT) {
    const placeholder = `… large change (${oldLines} → ${newLines} lines); diff omitted for size …`;
    return `${header}@@ -1,${oldLines} +1,${newLines} @@\n${placeholder}\n`;
  }
  const { hunks } = structuredPatch(`a/${path}`, `b/${path}`, oldText, newText, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
  });
  return header + formatHunks(hunks);
}

/** The "@@ -a,b +c,d @@" header; an empty side's start is the line before it, as in every unified diff. */
export function hunkHeader(hunk: StructuredPatchHunk): string {
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  return `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`;
}

function formatHunks(hunks: StructuredPatchHunk[]): string {
  const body: string[] = [];
  for (const hunk of hunks) {
    body.push(hunkHeader(hunk), ...hunk.lines);
    if (body.length > MAX_DIFF_BODY_LINES) {
      return `${body.slice(0, MAX_DIFF_BODY_LINES).join('\n')}\n… diff truncated …\n`;
    }
  }
  return `${body.join('\n')}\n`;
}
