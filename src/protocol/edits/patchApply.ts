/**
 * The `patch` tool's semantics: apply a unified diff to one file's content. Hunks apply in order; when the header's
 * line numbers have drifted, the hunk is placed at the nearest position where its context and removed lines match
 * (like `patch`'s offset search), first exactly, then ignoring trailing whitespace. Each line keeps its own ending;
 * added lines get the file's dominant one.
 */
import { dominantEol, splitLinesKeepEol } from './lines';
import { parseUnifiedPatch, type PatchHunk, type PatchLine } from './patchParse';

export type PatchResult = { ok: true; content: string } | { ok: false; error: string };

interface FileLine {
  text: string;
  eol: string;
}

export function applyUnifiedPatch(content: string, patch: string): PatchResult {
  const parsed = parseUnifiedPatch(patch);
  if (!parsed.ok) return parsed;
  const file = toFileLines(content);
  const eol = dominantEol(content);
  let minIndex = 0;
  let lineDelta = 0;
  for (const hunk of parsed.hunks) {
    const placed = placeHunk(file, hunk, minIndex, lineDelta);
    if (typeof placed === 'string') return { ok: false, error: placed };
    const oldSide = hunk.lines.filter((line) => line.kind !== '+');
    const replacement = buildReplacement(file, placed, hunk.lines, eol);
    const reachesEnd = placed + oldSide.length === file.length;
    const endedWithoutEol = file.length > 0 && file[file.length - 1].eol === '';
    file.splice(placed, oldSide.length, ...replacement);
    if (reachesEnd) fixFinalEol(file, hunk.lines, endedWithoutEol, eol);
    lineDelta += replacement.length - oldSide.length;
    minIndex = placed + replacement.length;
  }
  for (let i = 0; i < file.length - 1; i++) if (file[i].eol === '') file[i].eol = eol;
  return { ok: true, content: file.map((line) => line.text + line.eol).join('') };
}

function toFileLines(content: string): FileLine[] {
  return splitLinesKeepEol(content).map((raw) => {
    const eol = raw.endsWith('\r\n') ? '\r\n' : raw.endsWith('\n') ? '\n' : '';
    return { text: raw.slice(0, raw.length - eol.length), eol };
  });
}

/** The index where the hunk's old side starts, or an error message. */
function placeHunk(file: FileLine[], hunk: PatchHunk, minIndex: number, lineDelta: number): number | string {
  const oldSide = hunk.lines.filter((line) => line.kind !== '+').map((line) => line.text);
  const expected = expectedIndex(hunk, oldSide.length, lineDelta);
  if (oldSide.length === 0) {
    if (expected === null) {
      if (file.length === 0) return 0;
      return `hunk ${hunk.number} has neither line numbers nor context lines, so there is no way to place it`;
    }
    if (expected < minIndex || expected > file.length) {
      return `hunk ${hunk.number} (${hunk.header}) inserts at line ${expected} but the file has ${file.length} lines`;
    }
    return expected;
  }
  const sameText = (a: string, b: string) => a === b;
  const sameIgnoringTrailingSpace = (a: string, b: string) => a.trimEnd() === b.trimEnd();
  for (const equal of [sameText, sameIgnoringTrailingSpace]) {
    const found = nearestMatch(file, oldSide, expected ?? minIndex, minIndex, equal);
    if (found !== undefined) return found;
  }
  return mismatchMessage(hunk, oldSide, expected);
}

/** 0-based index the header points at, shifted by the lines earlier hunks added or removed. */
function expectedIndex(hunk: PatchHunk, oldSideLength: number, lineDelta: number): number | null {
  if (hunk.oldStart === null) return null;
  // "@@ -5,0 +6,2 @@" inserts AFTER line 5; otherwise the start is the first old line (1-based).
  const start = oldSideLength === 0 ? hunk.oldStart : Math.max(hunk.oldStart - 1, 0);
  return start + lineDelta;
}

function nearestMatch(
  file: FileLine[],
  oldSide: string[],
  expected: number,
  minIndex: number,
  equal: (a: string, b: string) => boolean,
): number | undefined {
  const lastStart = file.length - oldSide.length;
  const matchesAt = (at: number) => at >= minIndex && at <= lastStart && oldSide.every((text, k) => equal(file[at + k].text, text));
  const maxDistance = Math.max(expected - minIndex, lastStart - expected);
  for (let distance = 0; distance <= maxDistance; distance++) {
    if (matchesAt(expected - distance)) return expected - distance;
    if (distance > 0 && matchesAt(expected + distance)) return expected + distance;
  }
  return undefined;
}

function mismatchMessage(hunk: PatchHunk, oldSide: string[], expected: number | null): string {
  const where = expected === null ? '' : ` near line ${expected + 1}`;
  const shown = oldSide
    .slice(0, 8)
    .map((text) => `  ${text}`)
    .join('\n');
  const more = oldSide.length > 8 ? `\n  … (${oldSide.length - 8} more)` : '';
  return (
    `hunk ${hunk.number} (${hunk.header}) does not apply: its context and removed lines were not found${where} ` +
    `or anywhere after the previous hunk. Re-read the file; the hunk expects:\n${shown}${more}`
  );
}

function buildReplacement(file: FileLine[], start: number, lines: PatchLine[], eol: string): FileLine[] {
  const replacement: FileLine[] = [];
  let oldIndex = start;
  for (const line of lines) {
    if (line.kind === '-') oldIndex++;
    else if (line.kind === ' ') replacement.push({ ...file[oldIndex++] });
    else replacement.push({ text: line.text, eol });
  }
  return replacement;
}

/**
 * When a hunk reaches the end of the file, "\ No newline at end of file" markers decide whether the file ends with
 * a line break; without markers the file keeps whatever it had (an empty file gets one).
 */
function fixFinalEol(file: FileLine[], lines: PatchLine[], endedWithoutEol: boolean, eol: string): void {
  const last = file.at(-1);
  if (!last) return;
  const newSide = lines.filter((line) => line.kind !== '-');
  const oldSide = lines.filter((line) => line.kind !== '+');
  if (newSide.at(-1)?.noEol) last.eol = '';
  else if (oldSide.at(-1)?.noEol) last.eol = last.eol || eol;
  else last.eol = endedWithoutEol ? '' : last.eol || eol;
}
