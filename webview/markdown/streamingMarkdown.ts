/**
 * Splits a growing Markdown text into blocks so a streaming message re-renders only its last, still-growing block.
 *
 * A block ends
 * - at a blank line followed by a line that starts without indentation (an indented line may continue a list item),
 * - before a top-level fence opener that interrupts a paragraph, and right after a top-level fence's closing line,
 * never inside a fenced code block. Every boundary depends only on the text before it, so completed blocks never change
 * while text is appended: the splitter scans each line once.
 */

import { startsWithText } from '../../src/shared/statePatch';

interface Fence {
  char: '`' | '~';
  length: number;
  indent: number;
  start: number;
}

export interface BlockSplit {
  /** Blocks that can no longer change as text is appended. */
  completed: readonly string[];
  /** The last, still-growing block (may be empty). */
  tail: string;
  /** Set when the tail is a top-level fenced code block that is not closed yet. */
  openFence?: { lang: string; body: string };
  /** True when the text was not an extension of the previous one and the split started over. */
  reset: boolean;
}

const FENCE_OPEN = /^( *)(`{3,}|~{3,})([^`]*)$/;

export class BlockSplitter {
  private source = '';
  private completed: string[] = [];
  private tailStart = 0;
  private scanPos = 0;
  private prevBlank = false;
  private fence: Fence | undefined;

  update(text: string): BlockSplit {
    let reset = false;
    if (!startsWithText(text, this.source)) {
      this.clear();
      reset = true;
    }
    this.source = text;
    this.scanCompleteLines(text);
    this.checkPartialLineBoundary(text);
    return { completed: this.completed, tail: text.slice(this.tailStart), openFence: this.openFence(text), reset };
  }

  private clear(): void {
    this.source = '';
    this.completed = [];
    this.tailStart = 0;
    this.scanPos = 0;
    this.prevBlank = false;
    this.fence = undefined;
  }

  private scanCompleteLines(text: string): void {
    for (let nl = text.indexOf('\n', this.scanPos); nl >= 0; nl = text.indexOf('\n', this.scanPos)) {
      this.scanLine(text, this.scanPos, nl);
      this.scanPos = nl + 1;
    }
  }

  private scanLine(text: string, start: number, end: number): void {
    const line = text.slice(start, end).replace(/\r$/, '');
    if (this.fence) {
      if (closesFence(line, this.fence)) {
        const topLevel = this.fence.indent === 0;
        this.fence = undefined;
        if (topLevel) this.commitUntil(text, end + 1);
      }
      this.prevBlank = false;
      return;
    }
    const blank = line.trim() === '';
    const opener = FENCE_OPEN.exec(line);
    if (!blank && this.prevBlank && !startsIndented(line)) this.commitUntil(text, start);
    else if (opener && opener[1].length === 0) this.commitUntil(text, start);
    if (opener) this.fence = { char: opener[2][0] as '`' | '~', length: opener[2].length, indent: opener[1].length, start };
    this.prevBlank = blank;
  }

  /** A blank line followed by the first character of an unindented line is already a boundary. */
  private checkPartialLineBoundary(text: string): void {
    if (this.fence || !this.prevBlank || this.scanPos >= text.length) return;
    if (!startsIndented(text.slice(this.scanPos, this.scanPos + 1)) && text[this.scanPos] !== '\r' && text[this.scanPos] !== '\n') {
      this.commitUntil(text, this.scanPos);
    }
  }

  private commitUntil(text: string, end: number): void {
    if (end <= this.tailStart) return;
    const block = text.slice(this.tailStart, end);
    if (block.trim() !== '') this.completed.push(block);
    this.tailStart = end;
  }

  private openFence(text: string): BlockSplit['openFence'] {
    const fence = this.fence;
    if (!fence || fence.indent !== 0 || fence.start !== this.tailStart) return undefined;
    const firstNewline = text.indexOf('\n', fence.start);
    const info = text.slice(fence.start + fence.length, firstNewline).trim();
    return { lang: info.split(/\s+/)[0] ?? '', body: text.slice(firstNewline + 1) };
  }
}

function startsIndented(line: string): boolean {
  return line.startsWith(' ') || line.startsWith('\t');
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length || line.length - line.trimStart().length > 3 + fence.indent) return false;
  for (const ch of trimmed) if (ch !== fence.char) return false;
  return true;
}

/** The blocks of a finished text: all completed blocks plus the tail when it holds anything. */
export function splitMarkdownBlocks(text: string): string[] {
  const split = new BlockSplitter().update(text);
  return split.tail.trim() === '' ? [...split.completed] : [...split.completed, split.tail];
}
