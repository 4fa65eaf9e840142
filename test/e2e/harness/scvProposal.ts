import type { Locator, Page } from 'playwright-core';
import { activeDiffEditor, modifiedSide, type OpenProposal } from './diffEditor';

/**
 * An SCV `write` proposal in VS Code's diff editor: the same review as the embedded core's (diffEditor.ts), titled
 * "<relPath> ↔ SCV proposal (read-only)" — "(new file)" after the path for mode "create" — since SCV cannot apply an
 * edited proposal.
 */

export const SCV_PROPOSAL_SUFFIX = 'SCV proposal';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function scvProposalTitlePattern(relPath: string): RegExp {
  return new RegExp(`${escapeRegExp(relPath)}( \\(new file\\))? ↔ ${SCV_PROPOSAL_SUFFIX}`);
}

export function scvProposalTab(page: Page, relPath: string): Locator {
  return page
    .locator('.tabs-container .tab')
    .filter({ hasText: scvProposalTitlePattern(relPath) })
    .first();
}

export function scvProposalTabs(page: Page): Locator {
  return page.locator('.tabs-container .tab').filter({ hasText: SCV_PROPOSAL_SUFFIX });
}

/** Waits until the SCV proposal for `relPath` is the active tab and its diff editor shows text on the right. */
export async function waitForScvProposal(page: Page, relPath: string, timeoutMs = 30_000): Promise<OpenProposal & { title: string }> {
  const tab = scvProposalTab(page, relPath);
  await tab.waitFor({ state: 'visible', timeout: timeoutMs });
  await page
    .locator('.tabs-container .tab.active')
    .filter({ hasText: scvProposalTitlePattern(relPath) })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
  const diff = activeDiffEditor(page);
  await diff.waitFor({ state: 'visible', timeout: timeoutMs });
  await modifiedSide(diff).locator('.view-lines .view-line').first().waitFor({ state: 'visible', timeout: timeoutMs });
  const sideBySide = await diff.evaluate((el: any) => el.classList.contains('side-by-side'));
  const title = (await tab.innerText()).replace(/\s+/g, ' ').trim();
  return { tab, diff, sideBySide, title };
}

export async function waitForScvProposalClosed(page: Page, relPath: string, timeoutMs = 15_000): Promise<void> {
  await scvProposalTab(page, relPath).waitFor({ state: 'detached', timeout: timeoutMs });
}
