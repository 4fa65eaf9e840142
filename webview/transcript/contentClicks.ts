import type { WebviewToHost } from '../../src/shared/webviewMessages';
import { codeOfAction } from '../markdown/codeBlocks';
import { fileLinkOf } from '../markdown/links';
import { OPEN_PATH_ATTR } from './itemView';

/** How long a Copy / Insert button shows its check mark. */
const CONFIRM_MS = 1200;

/**
 * One click listener on `root` for what rendered content holds (the transcript's items, the Control Center's runs and
 * verdicts): code blocks' Copy / Insert buttons, file chips and file links open in the editor, and no link ever
 * navigates the webview.
 */
export function delegateContentClicks(root: HTMLElement, post: (message: WebviewToHost) => void): void {
  root.addEventListener('click', (event) => onContentClick(event, post));
}

function onContentClick(event: MouseEvent, post: (message: WebviewToHost) => void): void {
  const target = event.target as Element | null;
  if (!target) return;
  const codeButton = target.closest('[data-code-action]');
  if (codeButton) {
    onCodeAction(codeButton, post);
    return;
  }
  const pathEl = target.closest(`[${OPEN_PATH_ATTR}]`);
  if (pathEl) {
    event.preventDefault();
    post({ type: 'openFile', path: pathEl.getAttribute(OPEN_PATH_ATTR)! });
    return;
  }
  const link = target.closest('a');
  if (link) {
    // A workspace file opens in the editor, anything else does nothing.
    event.preventDefault();
    const file = fileLinkOf(link.getAttribute('href'));
    if (file) post({ type: 'openFile', ...file });
  }
}

function onCodeAction(button: Element, post: (message: WebviewToHost) => void): void {
  const action = codeOfAction(button);
  if (!action) return;
  post(action.action === 'copy' ? { type: 'copy', text: action.code } : { type: 'insertAtCursor', text: action.code });
  const icon = button.querySelector('.codicon');
  if (!icon) return;
  const original = icon.className;
  icon.className = 'codicon codicon-check';
  setTimeout(() => (icon.className = original), CONFIRM_MS);
}
