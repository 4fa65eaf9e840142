import type { Locator, Page } from 'playwright-core';
import { openCommandPalette, pickQuickItem, quickInputBox } from './quickInput';
import { waitUntil } from './wait';

/** Normal (non-diff) text editors of the workbench, as a user sees and drives them. */

/** The editor area's tab whose label starts with `label` (a file name, or a diff title). */
export function editorTab(page: Page, label: string): Locator {
  return page
    .locator('.tabs-container .tab')
    .filter({ has: page.locator('.label-name, .monaco-icon-label', { hasText: label }) })
    .first();
}

/** The active editor group's visible code editor (not a side of a diff editor). */
export function activeCodeEditor(page: Page): Locator {
  return page
    .locator(
      '.editor-group-container.active .editor-container .monaco-editor:not(.monaco-diff-editor):not(.monaco-diff-editor .monaco-editor)',
    )
    .filter({ visible: true })
    .first();
}

/**
 * Opens a workspace file in a normal editor by Quick Open (the palette box without '>'), the way a user types a name.
 * Waits until its tab is active and its text is on screen.
 */
export async function openWorkspaceFile(page: Page, relPath: string, opts: { timeoutMs?: number } = {}): Promise<Locator> {
  const base = relPath.split('/').pop()!;
  await openCommandPalette(page);
  await quickInputBox(page).fill(relPath);
  await pickQuickItem(page, base, { exact: true, timeoutMs: opts.timeoutMs ?? 30_000 });
  const tab = editorTab(page, base);
  await tab.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  await page
    .locator('.tabs-container .tab.active', { hasText: base })
    .first()
    .waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  const editor = activeCodeEditor(page);
  await editor
    .locator('.view-lines .view-line')
    .first()
    .waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  return editor;
}

/** Makes the tab labelled `label` the active editor (clicks its tab). */
export async function activateTab(page: Page, label: string): Promise<void> {
  const tab = editorTab(page, label);
  await tab.waitFor({ state: 'visible', timeout: 15_000 });
  await tab.click();
  await page.locator('.tabs-container .tab.active', { hasText: label }).first().waitFor({ state: 'visible', timeout: 15_000 });
}

/**
 * The text a Monaco editor shows, line by line in screen order (only the rendered lines: enough for files that fit on
 * screen). Monaco renders spaces as non-breaking spaces; they come back as spaces.
 */
export async function renderedText(editor: Locator): Promise<string> {
  return editor.evaluate((root: any) => {
    const lines = Array.from(root.querySelectorAll('.view-lines .view-line')) as any[];
    return lines
      .map((el) => ({ top: parseFloat(el.style.top || '0'), text: (el.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join('\n');
  });
}

/** Waits until the editor's rendered text satisfies `predicate` (e.g. includes a line); returns that text. */
export async function waitForRenderedText(
  editor: Locator,
  predicate: (text: string) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<string> {
  let last = '';
  try {
    return await waitUntil(
      async () => {
        last = await renderedText(editor);
        return predicate(last) ? last : undefined;
      },
      { timeoutMs, what },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; the editor showed:\n${last}`);
  }
}

/** Puts the caret in the editor (a click on its text) so keys go to it. */
export async function focusEditor(editor: Locator): Promise<void> {
  await editor
    .locator('.view-lines')
    .first()
    .click({ position: { x: 5, y: 5 } });
}

/** Moves the caret of the focused editor to a 1-based line (Quick Open's ':' mode, i.e. "Go to Line"). */
export async function goToLine(page: Page, line: number): Promise<void> {
  await openCommandPalette(page);
  await quickInputBox(page).fill(`:${line}`);
  await quickInputBox(page).press('Enter');
  await quickInputBox(page).waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Replaces the whole text of 1-based `line` in the focused editor by typing (no auto-closing: inserted as typed text). */
export async function retypeLine(page: Page, line: number, text: string): Promise<void> {
  await goToLine(page, line);
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.insertText(text);
}

/**
 * The text of the Markdown preview that shows `marker` (the preview renders in a webview frame of its own). A frame
 * that detaches while it is read is passed over; the wait goes on until one shows the marker.
 */
export async function waitForPreviewText(page: Page, marker: string, timeoutMs = 30_000): Promise<string> {
  return waitUntil(
    async () => {
      for (const frame of page.frames()) {
        if (frame.isDetached()) continue;
        const body: string = await frame.evaluate(() => (globalThis as any).document.body?.innerText ?? '').catch(() => '');
        if (body.includes(marker)) return body;
      }
      return undefined;
    },
    { timeoutMs, what: `a Markdown preview showing "${marker}"` },
  );
}
