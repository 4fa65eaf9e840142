import type { Locator, Page } from 'playwright-core';

/** VS Code's modal dialogs (`showWarningMessage(…, { modal: true }, …)`), as the user reads and answers them. */

export function modalDialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box').filter({ visible: true }).first();
}

/** The text of the modal once it shows (message, detail and buttons, one string). */
export async function waitForModal(page: Page, timeoutMs = 20_000): Promise<string> {
  const dialog = modalDialog(page);
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  return (await dialog.innerText()).trim();
}

/**
 * Waits for a modal, clicks its button labelled exactly `button` and waits for the modal to close. Returns what the
 * modal said (to assert on), read before answering.
 */
export async function answerModal(page: Page, button: string, timeoutMs = 20_000): Promise<string> {
  const text = await waitForModal(page, timeoutMs);
  const dialog = modalDialog(page);
  const escaped = button.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const target = dialog
    .locator('.monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${escaped}\\s*$`) })
    .first();
  const found = await target.waitFor({ state: 'visible', timeout: 5000 }).then(
    () => true,
    () => false,
  );
  if (!found) {
    const buttons = (await dialog.locator('.monaco-button').allInnerTexts()).map((b) => b.trim());
    throw new Error(`the modal has no "${button}" button (it has ${JSON.stringify(buttons)}); it says: ${text}`);
  }
  await target.click();
  await page.locator('.monaco-dialog-box').first().waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}
