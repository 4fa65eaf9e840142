import { h } from '../infra/dom';
import { parseDiffLines, type DiffLine } from './diffLines';
import { OPEN_PATH_ATTR } from '../transcript/itemView';

/** Lines shown before a "show all" button: a huge diff would otherwise be one long task to build. */
const INITIAL_LINES = 800;

/** A unified diff with +/- colouring; file header paths open the file. */
export function renderDiff(diff: string): HTMLElement {
  const lines = parseDiffLines(diff);
  const pre = h('pre', { class: 'diff', role: 'region', 'aria-label': 'Diff' });
  appendLines(pre, lines.slice(0, INITIAL_LINES));
  if (lines.length <= INITIAL_LINES) return pre;
  const more = h('button', { type: 'button', class: 'link-button' }, `Show ${lines.length - INITIAL_LINES} more lines`);
  more.addEventListener('click', () => {
    more.remove();
    appendLines(pre, lines.slice(INITIAL_LINES));
  });
  return h('div', { class: 'diff-wrap' }, pre, more);
}

function appendLines(pre: HTMLElement, lines: readonly DiffLine[]): void {
  const frag = document.createDocumentFragment();
  for (const line of lines) frag.appendChild(lineElement(line));
  pre.appendChild(frag);
}

function lineElement(line: DiffLine): HTMLElement {
  if (line.kind === 'file' && line.path && line.text.startsWith('+++')) {
    return h(
      'span',
      { class: 'diff-line diff-file' },
      '+++ ',
      h('button', { type: 'button', class: 'link-button', [OPEN_PATH_ATTR]: line.path, title: `Open ${line.path}` }, line.path),
      '\n',
    );
  }
  return h('span', { class: `diff-line diff-${line.kind}` }, `${line.text}\n`);
}
