/** Parsing a unified diff (as a model writes it) into hunks. Lenient about headers and blank lines, strict about hunk bodies. */

export interface PatchLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** Followed by "\ No newline at end of file". */
  noEol: boolean;
  /** An empty patch line read as a blank context line (some tools drop the leading space). */
  bare: boolean;
}

export interface PatchHunk {
  number: number;
  header: string;
  /** From the header; null when the header carries no line numbers (a bare "@@"). */
  oldStart: number | null;
  oldCount: number | null;
  lines: PatchLine[];
}

export type ParsedPatch = { ok: true; hunks: PatchHunk[] } | { ok: false; error: string };

const HUNK_HEADER = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnifiedPatch(patch: string): ParsedPatch {
  const lines = patch.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('@@')) {
      current = startHunk(line, hunks.length + 1);
      hunks.push(current);
    } else if (isFileHeader(line, lines[i + 1])) {
      if (line.startsWith('--- ')) i++; // its "+++ " partner
      current = undefined;
    } else if (current) {
      const error = addBodyLine(current, line, i + 1);
      if (error) return { ok: false, error };
    }
    // Lines before the first hunk (commentary, "diff --git", mode lines) are ignored, like `patch` does.
  }
  if (hunks.length === 0) return { ok: false, error: 'the patch has no hunks (expected "@@ -a,b +c,d @@" headers)' };
  for (const hunk of hunks) {
    dropTrailingBareLines(hunk);
    if (hunk.lines.length === 0) return { ok: false, error: `hunk ${hunk.number} (${hunk.header}) is empty` };
  }
  return { ok: true, hunks };
}

function startHunk(header: string, number: number): PatchHunk {
  const match = HUNK_HEADER.exec(header);
  return {
    number,
    header: header.slice(0, 80),
    oldStart: match ? Number(match[1]) : null,
    oldCount: match ? (match[2] === undefined ? 1 : Number(match[2])) : null,
    lines: [],
  };
}

function isFileHeader(line: string, next: string | undefined): boolean {
  if (line.startsWith('--- ') && next?.startsWith('+++ ')) return true;
  return line.startsWith('diff --git ') || line.startsWith('Index: ') || /^={20,}$/.test(line);
}

function addBodyLine(hunk: PatchHunk, line: string, lineNumber: number): string | undefined {
  if (line.startsWith('\\')) {
    const previous = hunk.lines.at(-1);
    if (previous) previous.noEol = true;
    return undefined;
  }
  if (line === '') {
    hunk.lines.push({ kind: ' ', text: '', noEol: false, bare: true });
    return undefined;
  }
  const kind = line[0];
  if (kind !== ' ' && kind !== '-' && kind !== '+') {
    return (
      `patch line ${lineNumber} in hunk ${hunk.number} starts with neither ' ', '-' nor '+': ` +
      `${JSON.stringify(line.slice(0, 120))} (every hunk line needs one of those prefixes)`
    );
  }
  hunk.lines.push({ kind, text: line.slice(1), noEol: false, bare: false });
  return undefined;
}

/** Blank lines after a hunk's last real line are trailing newlines of the patch text, unless the header counts them. */
function dropTrailingBareLines(hunk: PatchHunk): void {
  while (hunk.lines.at(-1)?.bare && oldSideLength(hunk) > (hunk.oldCount ?? 0)) hunk.lines.pop();
}

function oldSideLength(hunk: PatchHunk): number {
  return hunk.lines.filter((line) => line.kind !== '+').length;
}
