import type { FrameLocator, Locator } from 'playwright-core';
import { TEST_IDS } from '../../../src/shared/webviewMessages';
import { byTestId } from './chatView';
import { waitUntil } from './wait';

/**
 * SCV's server-side queue as the chat shows it (issue #6): a panel above the composer with one row per queued prompt
 * (data-id = queue id, data-revision), each with Edit / Move Up / Move Down / Remove, and a Pause toggle for the panel.
 */

export interface QueueRowView {
  id: string;
  revision: string;
  /** The row's text as the user reads it (the queued prompt). */
  text: string;
}

export function queuePanel(chat: FrameLocator): Locator {
  return chat.locator(byTestId(TEST_IDS.serverQueue)).first();
}

export function queueRows(chat: FrameLocator): Locator {
  return chat.locator(byTestId(TEST_IDS.serverQueueRow));
}

export function queueRow(chat: FrameLocator, id: string): Locator {
  return chat.locator(`${byTestId(TEST_IDS.serverQueueRow)}[data-id="${id}"]`).first();
}

/** The rows shown right now, top to bottom. */
export async function queueRowViews(chat: FrameLocator): Promise<QueueRowView[]> {
  const rows = queueRows(chat);
  const out: QueueRowView[] = [];
  for (const row of await rows.all()) {
    if (!(await row.isVisible().catch(() => false))) continue;
    out.push({
      id: (await row.getAttribute('data-id')) ?? '',
      revision: (await row.getAttribute('data-revision')) ?? '',
      text: (await row.innerText()).replace(/\s+/g, ' ').trim(),
    });
  }
  return out;
}

export function describeQueue(rows: readonly QueueRowView[]): string {
  return rows.length === 0 ? '(no rows)' : rows.map((r) => `[${r.id}@${r.revision}] ${r.text}`).join(' | ');
}

/** Polls the panel until `predicate` holds for its rows; returns them then. */
export async function waitForQueueRows(
  chat: FrameLocator,
  predicate: (rows: QueueRowView[]) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<QueueRowView[]> {
  let last: QueueRowView[] = [];
  try {
    return await waitUntil(
      async () => {
        last = await queueRowViews(chat);
        return predicate(last) ? last : undefined;
      },
      { timeoutMs, what },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; the queue panel shows: ${describeQueue(last)}`);
  }
}

/** Edit on the row, the new text in its field, Enter. */
export async function editQueueEntry(chat: FrameLocator, id: string, text: string): Promise<void> {
  const row = queueRow(chat, id);
  await row.locator(byTestId(TEST_IDS.serverQueueEdit)).first().click();
  const input = queuePanel(chat).locator(byTestId(TEST_IDS.serverQueueEditInput)).first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(text);
  await input.press('Enter');
}

export async function moveQueueEntryUp(chat: FrameLocator, id: string): Promise<void> {
  await queueRow(chat, id).locator(byTestId(TEST_IDS.serverQueueUp)).first().click();
}

export async function removeQueueEntry(chat: FrameLocator, id: string): Promise<void> {
  await queueRow(chat, id).locator(byTestId(TEST_IDS.serverQueueRemove)).first().click();
}

export function queuePauseToggle(chat: FrameLocator): Locator {
  return chat.locator(byTestId(TEST_IDS.serverQueuePause)).first();
}

/** Clicks Pause / Resume and waits until the toggle shows the server's answer (aria-pressed). */
export async function setQueuePaused(chat: FrameLocator, paused: boolean, timeoutMs = 10_000): Promise<void> {
  const toggle = queuePauseToggle(chat);
  if ((await toggle.getAttribute('aria-pressed')) === String(paused))
    throw new Error(`the queue is already ${paused ? 'paused' : 'running'}`);
  await toggle.click();
  let last: string | null = null;
  try {
    await waitUntil(async () => (last = await toggle.getAttribute('aria-pressed')) === String(paused), {
      timeoutMs,
      what: `the queue's Pause toggle to show ${paused ? 'paused' : 'resumed'}`,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message} (aria-pressed is ${last ?? 'absent'})`);
  }
}
