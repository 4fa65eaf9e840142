import type { Locator, Page } from 'playwright-core';
import { reviewTitlePattern, tabTitled, waitForReviewTab, type OpenProposal } from './diffEditor';

/**
 * An SCV `write` proposal in VS Code's diff editor: the same review as the embedded core's (diffEditor.ts), titled
 * "<relPath> ↔ SCV proposal (read-only)" — "(new file)" after the path for mode "create" — since SCV cannot apply an
 * edited proposal.
 */

export const SCV_PROPOSAL_SUFFIX = 'SCV proposal';

export function scvProposalTitlePattern(relPath: string): RegExp {
  return reviewTitlePattern(relPath, SCV_PROPOSAL_SUFFIX);
}

export function scvProposalTab(page: Page, relPath: string): Locator {
  return tabTitled(page, scvProposalTitlePattern(relPath));
}

export function scvProposalTabs(page: Page): Locator {
  return page.locator('.tabs-container .tab').filter({ hasText: SCV_PROPOSAL_SUFFIX });
}

/** Waits until the SCV proposal for `relPath` is the active tab and its diff editor shows text on the right. */
export async function waitForScvProposal(page: Page, relPath: string, timeoutMs = 30_000): Promise<OpenProposal & { title: string }> {
  const open = await waitForReviewTab(page, scvProposalTitlePattern(relPath), timeoutMs);
  const title = (await open.tab.innerText()).replace(/\s+/g, ' ').trim();
  return { ...open, title };
}

export async function waitForScvProposalClosed(page: Page, relPath: string, timeoutMs = 15_000): Promise<void> {
  await scvProposalTab(page, relPath).waitFor({ state: 'detached', timeout: timeoutMs });
}
