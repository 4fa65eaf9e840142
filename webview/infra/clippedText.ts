import { h } from './dom';

/** Characters of a long output shown before a "show all" button. */
const INITIAL_CHARS = 20_000;

/** A <pre> with long text clipped at first, so a huge command output never becomes one long render. */
export function clippedText(text: string, className: string): HTMLElement {
  if (text.length <= INITIAL_CHARS) return h('pre', { class: className }, text);
  const pre = h('pre', { class: className }, text.slice(0, INITIAL_CHARS));
  const more = h('button', { type: 'button', class: 'link-button' }, `Show all (${Math.round(text.length / 1024)} KB)`);
  more.addEventListener('click', () => {
    pre.textContent = text;
    more.remove();
  });
  return h('div', {}, pre, more);
}
