import type { Page } from 'playwright-core';
import { runCommand } from './quickInput';

/**
 * Waits for a workbench notification whose text matches `text`: a toast, or (toasts hide themselves after a while) an
 * entry of the notification center, which this opens if no toast showed in time.
 */
export async function waitForNotification(page: Page, text: RegExp, timeoutMs = 15_000): Promise<string> {
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  const shown = await toast.waitFor({ state: 'visible', timeout: timeoutMs }).then(
    () => true,
    () => false,
  );
  if (shown) return (await toast.innerText()).trim();
  await runCommand(page, 'Notifications: Show Notifications');
  const entry = page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
  await entry.waitFor({ state: 'visible', timeout: 5000 });
  const message = (await entry.innerText()).trim();
  await page.keyboard.press('Escape');
  return message;
}
