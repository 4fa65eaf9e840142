/** grep's three output modes over the searched files, paginated by head_limit/offset. */
import type { SearchedFile } from './grepFiles';

export interface Page {
  offset: number;
  limit: number;
}

export interface ContextLines {
  before: number;
  after: number;
}

export interface PagedOutput {
  lines: string[];
  /** More results exist after this page. */
  more: boolean;
}

const MAX_SHOWN_LINE_CHARS = 500;

/** `path:line:text` per selected line, `path-line-text` for context lines, "--" between separate groups. */
export async function contentMode(
  files: AsyncIterable<SearchedFile>,
  selects: (line: string) => boolean,
  context: ContextLines,
  page: Page,
): Promise<PagedOutput> {
  const groups: string[][] = [];
  let counted = 0;
  let more = false;
  for await (const file of files) {
    const hits = file.lines.flatMap((line, index) => (selects(line) ? [index] : []));
    const pageHits: number[] = [];
    for (const hit of hits) {
      if (counted >= page.offset + page.limit) {
        more = true;
        break;
      }
      if (counted >= page.offset) pageHits.push(hit);
      counted++;
    }
    if (pageHits.length > 0) groups.push(...contextGroups(file, pageHits, new Set(hits), context));
    if (more) break;
  }
  return { lines: joinGroups(groups, context), more };
}

/** Paths of files with a selected line; with `filesWithout`, of files with none (grep -L). */
export async function filesMode(
  files: AsyncIterable<SearchedFile>,
  selects: (line: string) => boolean,
  filesWithout: boolean,
  page: Page,
): Promise<PagedOutput> {
  return pageOf(files, page, (file) => (file.lines.some(selects) !== filesWithout ? file.path : undefined));
}

/** `path:N` for each file with N > 0 selected lines. */
export async function countMode(files: AsyncIterable<SearchedFile>, selects: (line: string) => boolean, page: Page): Promise<PagedOutput> {
  return pageOf(files, page, (file) => {
    const count = file.lines.filter(selects).length;
    return count > 0 ? `${file.path}:${count}` : undefined;
  });
}

async function pageOf(
  files: AsyncIterable<SearchedFile>,
  page: Page,
  render: (file: SearchedFile) => string | undefined,
): Promise<PagedOutput> {
  const lines: string[] = [];
  let counted = 0;
  for await (const file of files) {
    const line = render(file);
    if (line === undefined) continue;
    if (counted >= page.offset + page.limit) return { lines, more: true };
    if (counted >= page.offset) lines.push(line);
    counted++;
  }
  return { lines, more: false };
}

function contextGroups(file: SearchedFile, pageHits: number[], allHits: Set<number>, context: ContextLines): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let lastShown = -1;
  for (const hit of pageHits) {
    const from = Math.max(hit - context.before, lastShown + 1);
    const to = Math.min(hit + context.after, file.lines.length - 1);
    if (group.length > 0 && from > lastShown + 1) {
      groups.push(group);
      group = [];
    }
    for (let index = from; index <= to; index++) {
      const separator = allHits.has(index) ? ':' : '-';
      group.push(`${file.path}${separator}${index + 1}${separator}${shorten(file.lines[index])}`);
    }
    lastShown = Math.max(lastShown, to);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

function joinGroups(groups: string[][], context: ContextLines): string[] {
  if (context.before === 0 && context.after === 0) return groups.flat();
  return groups.flatMap((group, index) => (index === 0 ? group : ['--', ...group]));
}

function shorten(line: string): string {
  return line.length > MAX_SHOWN_LINE_CHARS ? `${line.slice(0, MAX_SHOWN_LINE_CHARS)}… [${line.length} chars]` : line;
}
