/**
 * Small DOM helpers. No `style` attributes (the CSP forbids inline styles; classes do the styling) and no HTML strings
 * built from data: text always goes in as text.
 */
type AttrValue = string | number | boolean | undefined | null;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, AttrValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** A custom element (vscode-elements) with attributes and children. */
export function custom(tag: string, attrs: Record<string, AttrValue> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Record<string, AttrValue>): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    el.setAttribute(name === 'className' ? 'class' : name, value === true ? '' : String(value));
  }
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function codicon(name: string, extraClass = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`, 'aria-hidden': 'true' });
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = '';
  append(parent, children);
}

export interface ButtonOptions {
  label: string;
  icon?: string;
  secondary?: boolean;
  testId?: string;
  ariaLabel?: string;
  title?: string;
  onClick: () => void;
}

/**
 * A `vscode-button` (native look, theme-aware). Its disabled state is mirrored in `aria-disabled`, and clicks on a
 * disabled button are dropped here because the element still dispatches them.
 */
export function vscodeButton(opts: ButtonOptions): HTMLElement {
  const el = custom('vscode-button', {
    secondary: opts.secondary,
    'data-testid': opts.testId,
    'aria-label': opts.ariaLabel,
    title: opts.title,
  });
  if (opts.icon) el.appendChild(withSlot(codicon(opts.icon), 'content-before'));
  el.appendChild(document.createTextNode(opts.label));
  el.addEventListener('click', (event) => {
    if (isDisabled(el)) {
      event.stopImmediatePropagation();
      return;
    }
    opts.onClick();
  });
  return el;
}

/**
 * Focuses a vscode-elements control once it can take focus: a Lit element created in this render is upgraded but not
 * yet rendered, and focus() before its first update does nothing (focus would fall to <body>).
 */
export function focusWhenRendered(el: HTMLElement): void {
  const rendered = (el as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete;
  if (rendered) void rendered.then(() => el.isConnected && el.focus());
  else queueMicrotask(() => el.focus());
}

function withSlot<T extends Element>(el: T, slot: string): T {
  el.setAttribute('slot', slot);
  return el;
}

export function setDisabled(el: HTMLElement, disabled: boolean): void {
  el.toggleAttribute('disabled', disabled);
  el.setAttribute('aria-disabled', String(disabled));
}

export function isDisabled(el: Element): boolean {
  return el.hasAttribute('disabled');
}

/** A compact icon-only button (toolbars, code blocks, rows), native so keyboard and focus behave natively. */
export function iconButton(icon: string, label: string, onClick: (event: MouseEvent) => void, testId?: string): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'icon-button', title: label, 'aria-label': label, 'data-testid': testId },
    codicon(icon),
  );
  button.addEventListener('click', onClick);
  return button;
}

/** A status badge (`vscode-badge`) with a tone class the stylesheet colours. */
export function badge(text: string, tone: string): HTMLElement {
  return custom('vscode-badge', { class: `badge tone-${tone}` }, text);
}
