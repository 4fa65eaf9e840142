import { runCommand } from './quickInput';
import type { Locator, Page } from 'playwright-core';
import { waitUntil } from './wait';

/**
 * The Source Control view as the user sees our checkpoints in it (issue #5): provider "Catalyst Checkpoints", one
 * resource group per checkpoint (newest first) listing the files that differ from it, an input box that creates one,
 * and the status-bar count "$(history) N". Files are matched by their label (`.resource .label-name`), never by the
 * row's whole text (which also holds the folder description and decorations).
 */

const VIEW = '.scm-view';
const ROWS = `${VIEW} .monaco-list-row`;

export interface ScmFile {
  name: string;
  /** The description next to the name (the folder, for nested files). */
  description: string;
  /** Rendered struck through (a file deleted since the checkpoint). */
  strikeThrough: boolean;
}

export interface ScmGroup {
  /** The group header as shown: `<label> · <relative time> · auto|manual · “<prompt>”`. */
  label: string;
  files: ScmFile[];
}

/** The status-bar item with the checkpoint count (its accessible name says "N Catalyst checkpoints"). */
export function checkpointStatusItem(page: Page): Locator {
  return page.locator('#workbench\\.parts\\.statusbar [aria-label*="Catalyst checkpoints"]').first();
}

/** The count the status bar shows, or undefined when the item is not shown. */
export async function checkpointCount(page: Page): Promise<number | undefined> {
  const item = checkpointStatusItem(page);
  if (!(await item.isVisible().catch(() => false))) return undefined;
  const label = (await item.getAttribute('aria-label')) ?? '';
  const m = /(\d+)\s+Catalyst checkpoints/.exec(label) ?? /(\d+)/.exec(await item.innerText());
  return m ? Number(m[1]) : undefined;
}

export async function waitForCheckpointCount(page: Page, count: number, timeoutMs = 20_000): Promise<void> {
  let last: number | undefined;
  try {
    await waitUntil(async () => (last = await checkpointCount(page)) === count, {
      timeoutMs,
      what: `the status bar to count ${count} checkpoints`,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message} (it shows ${last ?? 'nothing'})`);
  }
}

/** Clicks the status-bar count (how a user gets to the checkpoints) and waits for the Source Control view. */
export async function showCheckpointsView(page: Page, timeoutMs = 20_000): Promise<void> {
  const item = checkpointStatusItem(page);
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  await item.click();
  const view = page.locator(VIEW).filter({ visible: true }).first();
  try {
    await view.waitFor({ state: 'visible', timeout: 8_000 });
  } catch {
    // A click can land while the workbench moves focus (a notification, the chat re-rendering): the palette is the
    // user's other way there.
    await runCommand(page, 'Source Control: Focus on Changes View');
    await view.waitFor({ state: 'visible', timeout: timeoutMs });
  }
}

/** Every group of the view with its files, top to bottom (the rows rendered: enough for a short list). */
export async function scmGroups(page: Page): Promise<ScmGroup[]> {
  return page.evaluate((rowsSelector) => {
    const rows = (Array.from((globalThis as any).document.querySelectorAll(rowsSelector)) as any[])
      .filter((row) => row.offsetParent !== null)
      .sort((a, b) => Number(a.dataset.index ?? 0) - Number(b.dataset.index ?? 0));
    const groups: Array<{ label: string; files: Array<{ name: string; description: string; strikeThrough: boolean }> }> = [];
    for (const row of rows) {
      const group = row.querySelector('.resource-group');
      if (group) {
        groups.push({ label: (group.querySelector('.name')?.textContent ?? '').trim(), files: [] });
        continue;
      }
      const resource = row.querySelector('.resource');
      if (!resource || groups.length === 0) continue;
      groups[groups.length - 1].files.push({
        name: (resource.querySelector('.label-name')?.textContent ?? '').trim(),
        description: (resource.querySelector('.label-description')?.textContent ?? '').trim(),
        strikeThrough:
          resource.querySelector('.strikethrough, .strike-through, [class*="strikethrough"]') !== null ||
          /line-through/.test(
            resource.querySelector('.label-name')
              ? (globalThis as any).getComputedStyle(resource.querySelector('.label-name')).textDecorationLine
              : '',
          ),
      });
    }
    return groups;
  }, ROWS);
}

/** One line per group, for failure messages: `label: a.txt, b.txt`. */
export function describeGroups(groups: readonly ScmGroup[]): string {
  if (groups.length === 0) return '(no groups)';
  return groups.map((g) => `${g.label}: ${g.files.map((f) => f.name).join(', ') || '(no files)'}`).join(' | ');
}

/** Polls the view until `predicate` holds; returns the groups then. */
export async function waitForScmGroups(
  page: Page,
  predicate: (groups: ScmGroup[]) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<ScmGroup[]> {
  let last: ScmGroup[] = [];
  try {
    return await waitUntil(
      async () => {
        last = await scmGroups(page);
        return predicate(last) ? last : undefined;
      },
      { timeoutMs, what },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; Source Control shows: ${describeGroups(last)}`);
  }
}

/** The first group whose header matches `label`. */
export function findGroup(groups: readonly ScmGroup[], label: RegExp): ScmGroup | undefined {
  return groups.find((g) => label.test(g.label));
}

/** The row of the first group whose header matches `label`. */
export function scmGroupRow(page: Page, label: RegExp): Locator {
  return page
    .locator(ROWS)
    .filter({ has: page.locator('.resource-group .name', { hasText: label }) })
    .first();
}

/**
 * The row of file `name` in the first group whose header matches `group` (the same file may be listed under several
 * groups). Resolved by the list's row index at call time: use it at once.
 */
export async function scmResourceRow(page: Page, group: RegExp, name: string, timeoutMs = 20_000): Promise<Locator> {
  const index = await waitUntil(
    () =>
      page.evaluate(
        ({ rowsSelector, source, flags, name }) => {
          const rows = (Array.from((globalThis as any).document.querySelectorAll(rowsSelector)) as any[])
            .filter((row) => row.offsetParent !== null)
            .sort((a, b) => Number(a.dataset.index ?? 0) - Number(b.dataset.index ?? 0));
          const pattern = new RegExp(source, flags);
          let inGroup = false;
          for (const row of rows) {
            const header = row.querySelector('.resource-group .name');
            if (header) {
              if (inGroup) return undefined; // passed the group without finding the file
              inGroup = pattern.test((header.textContent ?? '').trim());
              continue;
            }
            if (inGroup && (row.querySelector('.resource .label-name')?.textContent ?? '').trim() === name)
              return String(row.dataset.index);
          }
          return undefined;
        },
        { rowsSelector: ROWS, source: group.source, flags: group.flags, name },
      ),
    { timeoutMs, what: `${name} under the checkpoint group ${group}` },
  );
  return page.locator(`${ROWS}[data-index="${index}"]`).first();
}

/** Hovers the row (inline actions show on hover) and clicks its inline action whose label starts with `action`. */
export async function clickInlineAction(row: Locator, action: string, timeoutMs = 10_000): Promise<void> {
  await row.hover();
  const button = row.locator(`.actions .action-label[aria-label^="${action}"]`).first();
  await button.waitFor({ state: 'visible', timeout: timeoutMs });
  await button.click();
}

/** The Source Control input box (a small editor) of the view. */
export function scmInput(page: Page): Locator {
  return page.locator(`${VIEW} .scm-editor`).filter({ visible: true }).first();
}

/** What the empty input box shows as its placeholder. */
export async function scmInputPlaceholder(page: Page): Promise<string> {
  return scmInput(page).evaluate((root: any) => {
    // Monaco's placeholder contribution (`.editorPlaceholder`), or an older SCM-specific element.
    const shown = (Array.from(root.querySelectorAll('[class*="laceholder"]')) as any[]).find((el) => (el.textContent ?? '').trim() !== '');
    if (shown) return shown.textContent.trim();
    return root.querySelector('textarea, .native-edit-context')?.getAttribute('aria-placeholder') ?? '';
  });
}

/** The text typed in the input box (its rendered lines). */
export async function scmInputText(page: Page): Promise<string> {
  return scmInput(page).evaluate((root: any) =>
    (Array.from(root.querySelectorAll('.view-lines .view-line')) as any[])
      .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
      .join('\n')
      .trim(),
  );
}

/** Types `text` into the input box and presses Ctrl+Enter (the provider's accept command). */
export async function acceptInInputBox(page: Page, text: string): Promise<void> {
  const input = scmInput(page);
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.locator('.view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
  await waitUntil(async () => (await scmInputText(page)) === text, { timeoutMs: 5000, what: `"${text}" in the Source Control input box` });
  await page.keyboard.press('Control+Enter');
}
