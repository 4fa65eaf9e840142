import type { FrameLocator, Locator, Page } from 'playwright-core';
import { TEST_IDS } from '../../../src/shared/webviewMessages';
import { byTestId, chatIframeSelector } from './chatView';
import { isQuickInputOpen, pickQuickItem, quickInputAsk, quickInputBox, quickInputPrompt, runCommand, typeInInputBox } from './quickInput';
import { waitUntil } from './wait';

/** What a user does in the chat webview, through its stable data-testids. */

export function testId(chat: FrameLocator, id: (typeof TEST_IDS)[keyof typeof TEST_IDS]): Locator {
  return chat.locator(byTestId(id));
}

/** Replaces the composer's text the way typing does (works for a textarea, a contenteditable or a web component). */
export async function fillComposer(chat: FrameLocator, text: string): Promise<void> {
  const composer = testId(chat, TEST_IDS.composer).first();
  await composer.waitFor({ state: 'visible', timeout: 30_000 });
  await composer.click();
  const page = composer.page();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
}

/** Types a prompt and submits it: the send button when it is shown and enabled, else Enter in the composer. */
export async function sendPrompt(chat: FrameLocator, text: string): Promise<void> {
  await fillComposer(chat, text);
  const send = testId(chat, TEST_IDS.sendButton).first();
  if ((await send.isVisible()) && (await send.isEnabled())) await send.click();
  else await testId(chat, TEST_IDS.composer).first().press('Enter');
}

export async function steer(chat: FrameLocator, text: string): Promise<void> {
  await fillComposer(chat, text);
  await testId(chat, TEST_IDS.steerButton).first().click();
}

export async function abortRun(chat: FrameLocator): Promise<void> {
  await testId(chat, TEST_IDS.abortButton).first().click();
}

/**
 * "Catalyst: Open Chat" from the palette, returning once its focus has landed in the sidebar chat. The command runs in
 * the extension host and focuses the view on its way back, after the palette has closed: on a loaded machine that can
 * come after the caller opened the palette again, which then loses the focus and closes. The focus is first put on
 * the page itself so that its landing on the chat's webview is a change that can be seen (the palette restores the
 * focus it found, and that may already be the chat).
 */
export async function openChatView(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
  await runCommand(page, 'Catalyst: Open Chat');
  await page.waitForFunction((sel) => (globalThis as any).document.activeElement?.matches(sel) === true, chatIframeSelector('sidebar'), {
    timeout: timeoutMs,
  });
}

/** The transcript's messages of one kind, as the user reads them. */
export async function messageTexts(
  chat: FrameLocator,
  id: typeof TEST_IDS.userMessage | typeof TEST_IDS.assistantMessage,
): Promise<string[]> {
  const texts = await testId(chat, id).allInnerTexts();
  return texts.map((t) => t.trim());
}

/**
 * Every message of one kind in the whole transcript, in order. The transcript is virtualized (only items near the
 * viewport are in the DOM), so this scrolls it from top to bottom collecting items by their `data-vindex`, and leaves it
 * scrolled to the bottom.
 */
export async function transcriptTexts(
  chat: FrameLocator,
  id: typeof TEST_IDS.userMessage | typeof TEST_IDS.assistantMessage,
): Promise<string[]> {
  const transcript = testId(chat, TEST_IDS.transcript).first();
  await transcript.waitFor({ state: 'attached', timeout: 30_000 });
  return transcript.evaluate(async (root: any, selector: string) => {
    const g = globalThis as any;
    const scrollable = (el: any) => el && el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(g.getComputedStyle(el).overflowY);
    let scroller = root;
    while (scroller && !scrollable(scroller)) scroller = scroller.parentElement;
    scroller ??= Array.from(root.querySelectorAll('*')).find(scrollable);
    const seen = new Map<string, { order: number; text: string }>();
    const collect = () => {
      Array.from(root.querySelectorAll(selector)).forEach((el: any, i: number) => {
        const item = el.closest('[data-vindex]');
        const key = item ? `v${item.dataset.vindex}` : `d${i}`;
        seen.set(key, { order: item ? Number(item.dataset.vindex) : i, text: (el.innerText ?? '').trim() });
      });
    };
    const settle = () => new Promise((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(resolve)));
    if (!scroller) {
      collect();
    } else {
      scroller.scrollTop = 0;
      await settle();
      collect();
      for (let i = 0; i < 1000 && scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1; i++) {
        const before = scroller.scrollTop;
        scroller.scrollTop += Math.max(50, scroller.clientHeight * 0.7);
        await settle();
        collect();
        if (scroller.scrollTop <= before) break; // the scroller can stop a few pixels short of scrollHeight − clientHeight
      }
      scroller.scrollTop = scroller.scrollHeight;
      await settle();
    }
    return [...seen.values()].sort((a, b) => a.order - b.order).map((v) => v.text);
  }, `[data-testid="${id}"]`);
}

/** The assistant message containing `text`, once it is visible. */
export async function waitForAssistantText(chat: FrameLocator, text: string | RegExp, timeoutMs = 60_000): Promise<Locator> {
  const message = testId(chat, TEST_IDS.assistantMessage).filter({ hasText: text }).last();
  await message.waitFor({ state: 'visible', timeout: timeoutMs });
  return message;
}

export async function waitForUserText(chat: FrameLocator, text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
  const message = testId(chat, TEST_IDS.userMessage).filter({ hasText: text }).last();
  await message.waitFor({ state: 'visible', timeout: timeoutMs });
  return message;
}

/** Waits until no run is active: the abort button is gone. */
export async function waitForIdle(chat: FrameLocator, timeoutMs = 60_000): Promise<void> {
  await testId(chat, TEST_IDS.abortButton).first().waitFor({ state: 'hidden', timeout: timeoutMs });
}

/**
 * Waits until the chat header shows the core ready (`data-status="ready"`). After a crash or restart, call it once an
 * event of that restart has been seen (its notice, the new process): before that, "ready" may still be the old core's.
 */
export async function waitForCoreReady(chat: FrameLocator, timeoutMs = 60_000): Promise<void> {
  await chat
    .locator(`${byTestId(TEST_IDS.coreStatus)}[data-status="ready"]`)
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

export async function waitForRunning(chat: FrameLocator, timeoutMs = 30_000): Promise<void> {
  await testId(chat, TEST_IDS.abortButton).first().waitFor({ state: 'visible', timeout: timeoutMs });
}

export interface CustomEndpoint {
  name: string;
  baseUrl: string;
  apiKey: string;
}

/**
 * "Catalyst: Log In…" → "Custom OpenAI-compatible endpoint…", then answers each input box by what it asks for
 * (the key, the base URL, the name; anything else is accepted as offered) until the quick input closes.
 */
export async function logInToCustomEndpoint(page: Page, endpoint: CustomEndpoint): Promise<string[]> {
  await runCommand(page, 'Catalyst: Log In…');
  await pickQuickItem(page, 'Custom OpenAI-compatible endpoint…');
  const asked: string[] = [];
  while (asked.length < 8) {
    // Between one box and the next the quick input may close for a moment.
    const open = await waitUntil(() => isQuickInputOpen(page), { timeoutMs: 5000, what: 'the next input box' }).catch(() => false);
    if (!open) break;
    const prompt = await quickInputPrompt(page);
    asked.push(prompt);
    const ask = await quickInputAsk(page);
    const answer = answerFor(ask.detail, endpoint) ?? answerFor(ask.title, endpoint);
    if (answer === undefined)
      await quickInputBox(page).press('Enter'); // a box we don't know: take what it offers
    else await typeInInputBox(page, answer);
    await waitUntil(async () => !(await isQuickInputOpen(page)) || (await quickInputPrompt(page)) !== prompt, {
      timeoutMs: 15_000,
      what: `the input box "${prompt}" to accept its value (a validation message?)`,
    });
  }
  return asked;
}

function answerFor(prompt: string, endpoint: CustomEndpoint): string | undefined {
  if (/\bkey\b|token|secret/i.test(prompt)) return endpoint.apiKey;
  if (/\burl\b|base|address/i.test(prompt)) return endpoint.baseUrl;
  if (/name/i.test(prompt)) return endpoint.name;
  return undefined;
}
