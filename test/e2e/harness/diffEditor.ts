import type { Locator, Page } from 'playwright-core';
import { labelPattern } from './quickInput';

/**
 * The approval preview in VS Code's diff editor (issue #4): a tab titled "<relPath> ↔ Catalyst proposal", the file as
 * it is on the left, the proposal on the right, CodeLens per change block on the right, title actions and a "..." menu.
 */

export const PROPOSAL_TITLE_SUFFIX = 'Catalyst proposal';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "<relPath> ↔ <suffix>" or "<relPath> (new file) ↔ <suffix>": the title of a review tab (the suffix names the reviewer). */
export function reviewTitlePattern(relPath: string, suffix: string): RegExp {
  return new RegExp(`${escapeRegExp(relPath)}( \\(new file\\))? ↔ ${suffix}`);
}

/** The first editor tab (any group) whose title matches `title`. */
export function tabTitled(page: Page, title: RegExp): Locator {
  return page.locator('.tabs-container .tab').filter({ hasText: title }).first();
}

/** "<relPath> ↔ Catalyst proposal" or "<relPath> (new file) ↔ Catalyst proposal". */
export function proposalTitlePattern(relPath: string): RegExp {
  return reviewTitlePattern(relPath, PROPOSAL_TITLE_SUFFIX);
}

/** The editor tab of the proposal for `relPath` (any group). */
export function proposalTab(page: Page, relPath: string): Locator {
  return tabTitled(page, proposalTitlePattern(relPath));
}

/** Every open proposal tab (any file). */
export function proposalTabs(page: Page): Locator {
  return page.locator('.tabs-container .tab').filter({ hasText: PROPOSAL_TITLE_SUFFIX });
}

/** The diff editor shown in the active editor group. */
export function activeDiffEditor(page: Page): Locator {
  return page.locator('.editor-group-container.active .monaco-diff-editor').filter({ visible: true }).first();
}

export function modifiedSide(diff: Locator): Locator {
  return diff.locator('.editor.modified .monaco-editor').first();
}

export function originalSide(diff: Locator): Locator {
  return diff.locator('.editor.original .monaco-editor').first();
}

export interface OpenProposal {
  tab: Locator;
  diff: Locator;
  /** Whether the diff renders side by side (CodeLens only shows on the modified side in that mode). */
  sideBySide: boolean;
}

/** Waits until the tab titled `title` is the active tab and its diff editor shows text on the right. */
export async function waitForReviewTab(page: Page, title: RegExp, timeoutMs = 30_000): Promise<OpenProposal> {
  const tab = tabTitled(page, title);
  await tab.waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.tabs-container .tab.active').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  const diff = activeDiffEditor(page);
  await diff.waitFor({ state: 'visible', timeout: timeoutMs });
  await modifiedSide(diff).locator('.view-lines .view-line').first().waitFor({ state: 'visible', timeout: timeoutMs });
  const sideBySide = await diff.evaluate((el: any) => el.classList.contains('side-by-side'));
  return { tab, diff, sideBySide };
}

/** Waits until the proposal for `relPath` is the active tab and its diff editor shows text on the right. */
export async function waitForProposal(page: Page, relPath: string, timeoutMs = 30_000): Promise<OpenProposal> {
  return waitForReviewTab(page, proposalTitlePattern(relPath), timeoutMs);
}

/** Waits until no tab shows the proposal for `relPath`. */
export async function waitForProposalClosed(page: Page, relPath: string, timeoutMs = 15_000): Promise<void> {
  await proposalTab(page, relPath).waitFor({ state: 'detached', timeout: timeoutMs });
}

/** A title action of the active editor (the icons at the right of the tab bar), by the start of its label. */
export function titleAction(page: Page, label: string): Locator {
  return page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`).first();
}

export async function clickTitleAction(page: Page, label: string, timeoutMs = 10_000): Promise<void> {
  const action = titleAction(page, label);
  await action.waitFor({ state: 'visible', timeout: timeoutMs });
  await action.click();
}

/** Opens the active editor's "..." (More Actions) menu and clicks the entry labelled `label`. */
export async function clickTitleMenuItem(page: Page, label: string, timeoutMs = 10_000): Promise<void> {
  const more = page.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="More Actions"]').first();
  await more.waitFor({ state: 'visible', timeout: timeoutMs });
  await more.click();
  // Context menus render in a shadow root; Playwright's CSS engine looks inside open ones.
  const item = page
    .locator('.monaco-menu .action-item .action-label')
    .filter({ hasText: labelPattern(label) })
    .first();
  await item.waitFor({ state: 'visible', timeout: timeoutMs });
  await item.click();
}

/**
 * The CodeLens items rendered in the modified (proposal) side, e.g. "Accept Change", "Reject Change", "1 of 3": links
 * (`a`, a lens with a command) and plain labels (`span`, a lens without one).
 */
export function codeLensLinks(diff: Locator): Locator {
  return diff.locator('.editor.modified .codelens-decoration > a, .editor.modified .codelens-decoration > span');
}

export async function codeLensTexts(diff: Locator): Promise<string[]> {
  return (await codeLensLinks(diff).allTextContents()).map((t) => t.trim());
}

/**
 * Clicks the CodeLens link whose text contains `lensText` in the lens row directly above the rendered proposal line
 * containing `lineText` (the line must be on screen: reveal it first). Lenses are content widgets positioned over a
 * view zone just above their line, so "directly above" is the lens whose bottom is nearest to that line's top.
 */
export async function clickCodeLensAbove(page: Page, diff: Locator, lineText: string, lensText: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Lenses are re-rendered (new elements) when the editor scrolls or the provider refreshes them: tag the link, click
  // it, and tag again if it was replaced in between.
  for (let attempt = 1; ; attempt++) {
    const marker = `e2e-lens-${Date.now()}-${attempt}`;
    const tagged = await modifiedSide(diff)
      .evaluate(tagLensAbove, { lineText, lensText, marker })
      .catch(() => false);
    if (tagged) {
      const clicked = await page
        .locator(`[data-e2e-lens="${marker}"]`)
        .click({ timeout: 2000 })
        .then(
          () => true,
          () => false,
        );
      if (clicked) return;
    }
    if (Date.now() > deadline)
      throw new Error(
        `could not click the "${lensText}" CodeLens above the proposal line "${lineText}" (${tagged ? 'it kept being re-rendered' : 'not on screen'})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** In the page: marks the lens link `lensText` in the lens row nearest above the rendered line containing `lineText`. */
function tagLensAbove(root: any, args: { lineText: string; lensText: string; marker: string }): boolean {
  const lines = Array.from(root.querySelectorAll('.view-lines .view-line')) as any[];
  const line = lines.find((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ').includes(args.lineText));
  if (!line) return false;
  const lineTop = line.getBoundingClientRect().top;
  let best: any;
  let bestGap = Infinity;
  for (const deco of Array.from(root.querySelectorAll('.codelens-decoration')) as any[]) {
    const gap = lineTop - deco.getBoundingClientRect().bottom;
    if (gap >= -3 && gap < bestGap) {
      bestGap = gap;
      best = deco;
    }
  }
  if (!best || bestGap > 40) return false;
  const link = (Array.from(best.querySelectorAll('a')) as any[]).find((a) => (a.textContent ?? '').includes(args.lensText));
  if (!link) return false;
  link.setAttribute('data-e2e-lens', args.marker);
  return true;
}

/**
 * Counts proposal tabs appearing from now on (a MutationObserver in the page), to prove that none did. Call the returned
 * function to read the count.
 */
export async function watchProposalTabs(page: Page): Promise<() => Promise<number>> {
  const key = `__e2eProposalTabs${Date.now()}`;
  await page.evaluate(
    ({ key, suffix }) => {
      const g = globalThis as any;
      const proposalTabsNow = () =>
        (Array.from(g.document.querySelectorAll('.tabs-container .tab')) as any[]).filter((tab) =>
          (tab.textContent ?? '').includes(suffix),
        );
      const baseline = new Set<any>(proposalTabsNow());
      const seen = new Set<any>();
      const scan = () => {
        for (const tab of proposalTabsNow()) if (!baseline.has(tab)) seen.add(tab);
        g[key] = seen.size;
      };
      g[key] = 0;
      new g.MutationObserver(scan).observe(g.document.body, { childList: true, subtree: true, characterData: true });
    },
    { key, suffix: PROPOSAL_TITLE_SUFFIX },
  );
  return () => page.evaluate((k) => (globalThis as any)[k] as number, key);
}
