import { codicon, h } from '../infra/dom';

/** A titled list in goal mode's views (risks, validation, remaining gaps), or nothing when it has no entries. */
export function listSection(title: string, entries: readonly string[], icon?: string): HTMLElement | null {
  if (entries.length === 0) return null;
  return h(
    'div',
    { class: 'goal-list-section' },
    h('div', { class: 'section-title' }, ...(icon ? [codicon(icon), ` ${title}`] : [title])),
    h('ul', { 'aria-label': title }, ...entries.map((e) => h('li', {}, e))),
  );
}
