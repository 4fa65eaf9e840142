/**
 * Per-block review of a proposal: the change blocks between the original text and the proposal with NO context lines
 * (each contiguous run of removed/added lines is one block), and reverting one of them in the proposal.
 *
 * Lines keep their terminators ("a\r\n", "b\n", "c"), so a line-ending change or a missing final newline is a change,
 * and a revert restores the original bytes exactly. The line diff is jsdiff's Myers diff (O((N+M)·D)) over the lines
 * left after trimming the common prefix and suffix, so a large file with a few small changes diffs in milliseconds.
 */
import { diffArrays } from 'diff';
import { splitLinesKeepEol } from '../../protocol/edits/lines';

export interface ReviewHunk {
  /** 0-based order. */
  index: number;
  /**
   * Stable identity of the block: a hash of its removed text and added text plus its occurrence number among
   * identical blocks, so it survives edits elsewhere in the file.
   */
  key: string;
  /** 0-based line index in the original where the block starts (for a pure insertion: the line it goes before). */
  originalStart: number;
  originalCount: number;
  /**
   * 0-based line index in the proposal where the block starts; for a pure deletion, the index of the line that now
   * follows the deleted lines (which may be one past the last line; see anchorLine for a valid line).
   */
  proposalStart: number;
  /** 0 for a pure deletion. */
  proposalCount: number;
  /**
   * 0-based proposal line to put a CodeLens on: proposalStart clamped to [0, lineCount-1], where lineCount counts lines
   * as an editor does (line breaks + 1, so a text ending with a line break has an empty last line).
   */
  anchorLine: number;
}

/**
 * Deterministic bound on the diff's work, which grows with the square of the edit distance (in lines): past it (about
 * 60 ms), the changed middle becomes one block — a rewrite that large is reviewed as a whole.
 */
export const MAX_EDIT_LINES = 1000;

interface Block {
  originalStart: number;
  proposalStart: number;
  removed: string[];
  added: string[];
}

export function reviewHunks(original: string, proposal: string): ReviewHunk[] {
  if (original === proposal) return [];
  const blocks = changeBlocks(splitLinesKeepEol(original), splitLinesKeepEol(proposal));
  const editorLines = editorLineCount(proposal);
  const seen = new Map<string, number>();
  return blocks.map((block, index) => {
    const signature = blockSignature(block);
    const occurrence = seen.get(signature) ?? 0;
    seen.set(signature, occurrence + 1);
    return {
      index,
      key: `${signature}-${occurrence}`,
      originalStart: block.originalStart,
      originalCount: block.removed.length,
      proposalStart: block.proposalStart,
      proposalCount: block.added.length,
      anchorLine: Math.max(0, Math.min(block.proposalStart, editorLines - 1)),
    };
  });
}

/**
 * The text edit that reverts one block in the proposal: replace proposal[start, end) (UTF-16 offsets) by text.
 * undefined when no block has that key.
 */
export function rejectHunkEdit(original: string, proposal: string, key: string): { start: number; end: number; text: string } | undefined {
  const hunk = reviewHunks(original, proposal).find((candidate) => candidate.key === key);
  if (!hunk) return undefined;
  const originalLines = splitLinesKeepEol(original);
  const proposalLines = splitLinesKeepEol(proposal);
  const start = lengthOf(proposalLines, 0, hunk.proposalStart);
  const end = start + lengthOf(proposalLines, hunk.proposalStart, hunk.proposalStart + hunk.proposalCount);
  const text = originalLines.slice(hunk.originalStart, hunk.originalStart + hunk.originalCount).join('');
  return { start, end, text };
}

/** The proposal with the block reverted; undefined when no block has that key. */
export function rejectHunk(original: string, proposal: string, key: string): string | undefined {
  const edit = rejectHunkEdit(original, proposal, key);
  if (!edit) return undefined;
  return proposal.slice(0, edit.start) + edit.text + proposal.slice(edit.end);
}

/**
 * The block that covers 0-based proposal line `line` (a pure deletion covers its anchorLine), else the nearest block
 * starting after it, else undefined.
 */
export function hunkAtLine(hunks: ReviewHunk[], line: number): ReviewHunk | undefined {
  const covering = hunks.find((hunk) =>
    hunk.proposalCount === 0 ? hunk.anchorLine === line : line >= hunk.proposalStart && line < hunk.proposalStart + hunk.proposalCount,
  );
  if (covering) return covering;
  let next: ReviewHunk | undefined;
  for (const hunk of hunks) {
    if (hunk.anchorLine > line && (!next || hunk.anchorLine < next.anchorLine)) next = hunk;
  }
  return next;
}

function changeBlocks(a: string[], b: string[]): Block[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  if (middleA.length === 0 && middleB.length === 0) return [];
  const whole: Block = { originalStart: prefix, proposalStart: prefix, removed: middleA, added: middleB };
  if (middleA.length === 0 || middleB.length === 0) return [whole];
  const changes = diffArrays(middleA, middleB, { maxEditLength: MAX_EDIT_LINES });
  if (!changes) return [whole];
  const blocks: Block[] = [];
  let current: Block | undefined;
  let i = prefix;
  let j = prefix;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      current = undefined;
      i += change.count;
      j += change.count;
      continue;
    }
    if (!current) {
      current = { originalStart: i, proposalStart: j, removed: [], added: [] };
      blocks.push(current);
    }
    if (change.removed) {
      current.removed.push(...change.value);
      i += change.count;
    } else {
      current.added.push(...change.value);
      j += change.count;
    }
  }
  return blocks;
}

/** Lines as an editor counts them: line breaks + 1. */
function editorLineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function lengthOf(lines: string[], from: number, to: number): number {
  let length = 0;
  for (let k = from; k < to; k++) length += lines[k].length;
  return length;
}

/** A short hash of the block's removed and added text (with their line counts), as the key's content part. */
function blockSignature(block: Block): string {
  const removed = block.removed.join('');
  const added = block.added.join('');
  const hash = cyrb53(`${removed}\u0000${added}`);
  return `${block.removed.length}.${block.added.length}.${hash.toString(36)}`;
}

/** cyrb53: a fast 53-bit string hash (public domain); collisions are practically irrelevant for a handful of blocks. */
function cyrb53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let k = 0; k < text.length; k++) {
    const ch = text.charCodeAt(k);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
