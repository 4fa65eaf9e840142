import type { Frame, Locator, Page } from 'playwright-core';
import { TEST_IDS } from '../../../src/shared/webviewMessages';
import { extensionId } from './paths';

export type ChatPlacement = 'sidebar' | 'editor';
export type TestId = (typeof TEST_IDS)[keyof typeof TEST_IDS];

/** The outer `iframe.webview` of our chat: VS Code puts the extension id and, for views, `purpose=webviewView` in its src. */
export function chatIframeSelector(placement: ChatPlacement): string {
  const ours = `iframe.webview[src*="extensionId=${extensionId()}"]`;
  return placement === 'sidebar' ? `${ours}[src*="purpose=webviewView"]` : `${ours}:not([src*="purpose=webviewView"])`;
}

/**
 * The Playwright Frame our chat UI runs in (the inner `#active-frame` of the visible webview). A webview swaps its inner
 * frame when it reloads, so call this again after anything that may recreate the view rather than keeping the Frame.
 */
export async function chatFrame(page: Page, placement: ChatPlacement = 'sidebar', timeoutMs = 60_000): Promise<Frame> {
  const outer = page.locator(`${chatIframeSelector(placement)}:visible`).last();
  await outer.waitFor({ state: 'attached', timeout: timeoutMs });
  const outerFrame = await (await outer.elementHandle({ timeout: timeoutMs }))?.contentFrame();
  if (!outerFrame) throw new Error(`the ${placement} chat webview has no frame`);
  const inner = await outerFrame.waitForSelector('iframe#active-frame', { state: 'attached', timeout: timeoutMs });
  const frame = await inner.contentFrame();
  if (!frame) throw new Error(`the ${placement} chat webview has no active frame`);
  await frame.waitForLoadState('domcontentloaded', { timeout: timeoutMs });
  return frame;
}

/** A locator re-resolved on every use (survives the webview swapping frames), for the usual waits and clicks. */
export function chatLocator(page: Page, placement: ChatPlacement = 'sidebar') {
  return page.frameLocator(`${chatIframeSelector(placement)}:visible >> nth=-1`).frameLocator('iframe#active-frame');
}

export function byTestId(id: TestId): string {
  return `[data-testid="${id}"]`;
}

/** Waits until an element with this `data-testid` is visible in the frame and returns its locator (the first match). */
export async function waitForTestId(frame: Frame, id: TestId, timeoutMs = 30_000): Promise<Locator> {
  const locator = frame.locator(byTestId(id)).first();
  await locator.waitFor({ state: 'visible', timeout: timeoutMs });
  return locator;
}
