/** One line of a unified diff, classified for colouring; file header lines carry the file's path. */
export interface DiffLine {
  kind: 'add' | 'del' | 'hunk' | 'file' | 'meta' | 'context';
  text: string;
  path?: string;
}

export function parseDiffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  return lines.map(classify);
}

function classify(text: string): DiffLine {
  if (text.startsWith('+++ ') || text.startsWith('--- ')) {
    const path = headerPath(text.slice(4));
    return path ? { kind: 'file', text, path } : { kind: 'file', text };
  }
  if (text.startsWith('@@')) return { kind: 'hunk', text };
  if (text.startsWith('+')) return { kind: 'add', text };
  if (text.startsWith('-')) return { kind: 'del', text };
  if (/^(diff |index |new file|deleted file|similarity|rename |\\ No newline)/.test(text)) return { kind: 'meta', text };
  return { kind: 'context', text };
}

function headerPath(rest: string): string | undefined {
  const name = rest.split('\t')[0].trim();
  if (name === '/dev/null' || name === '') return undefined;
  return name.replace(/^[ab]\//, '');
}

/** Counts of added and removed lines (file headers excluded). */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}
