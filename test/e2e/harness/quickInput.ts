import type { Locator, Page } from 'playwright-core';

const WIDGET = '.quick-input-widget';

/** Escapes a label for a RegExp and lets "…" and "..." match each other (titles use either). */
export function labelPattern(label: string, exact = true): RegExp {
  const body = label
    .split(/…|\.\.\./)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('(?:…|\\.\\.\\.)');
  return new RegExp(exact ? `^\\s*${body}\\s*$` : body, 'i');
}

export function quickInputWidget(page: Page): Locator {
  return page.locator(WIDGET);
}

export function quickInputBox(page: Page): Locator {
  return page.locator(`${WIDGET} .quick-input-box input`);
}

/** The row of the open quick pick whose label is `label` (exactly, unless `exact` is false). */
export function quickPickRow(page: Page, label: string, exact = true): Locator {
  return page
    .locator(`${WIDGET} .monaco-list-row`)
    .filter({ has: page.locator('.label-name', { hasText: labelPattern(label, exact) }) })
    .first();
}

/** Clicks the quick pick row labelled `label` once it appears. */
export async function pickQuickItem(page: Page, label: string, opts: { exact?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const row = quickPickRow(page, label, opts.exact ?? false);
  await row.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  await row.click();
}

export interface QuickInputAsk {
  title: string;
  /** The prompt (message), placeholder and aria-label of the input: what this particular box asks for. */
  detail: string;
}

/** What the open quick input asks for, as the user reads it. */
export async function quickInputAsk(page: Page): Promise<QuickInputAsk> {
  return page.evaluate((sel) => {
    const widget = (globalThis as any).document.querySelector(sel);
    if (!widget) return { title: '', detail: '' };
    const text = (s: string): string => widget.querySelector(s)?.textContent ?? '';
    const input = widget.querySelector('.quick-input-box input');
    const detail = [text('.quick-input-message'), input?.getAttribute('placeholder') ?? '', input?.getAttribute('aria-label') ?? ''];
    return { title: text('.quick-input-title'), detail: detail.filter(Boolean).join(' | ') };
  }, WIDGET);
}

/** The quick input's title and prompt in one string (for messages and change detection). */
export async function quickInputPrompt(page: Page): Promise<string> {
  const ask = await quickInputAsk(page);
  return [ask.title, ask.detail].filter(Boolean).join(' | ');
}

export async function isQuickInputOpen(page: Page): Promise<boolean> {
  return quickInputBox(page).isVisible();
}

/**
 * Types `text` into the open input box and accepts it. With `prompt`, first waits until the box asks for that
 * (input boxes shown one after another reuse the same DOM, so the prompt is how to tell them apart).
 */
export async function typeInInputBox(page: Page, text: string, opts: { prompt?: RegExp; timeoutMs?: number } = {}): Promise<void> {
  const input = quickInputBox(page);
  await input.waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  if (opts.prompt) {
    const prompt = opts.prompt;
    await page.waitForFunction(
      ([sel, source, flags]) => {
        const widget = (globalThis as any).document.querySelector(sel);
        if (!widget) return false;
        const input = widget.querySelector('.quick-input-box input');
        const shown = `${widget.querySelector('.quick-input-title')?.textContent ?? ''} ${widget.querySelector('.quick-input-message')?.textContent ?? ''} ${input?.getAttribute('placeholder') ?? ''} ${input?.getAttribute('aria-label') ?? ''}`;
        return new RegExp(source, flags).test(shown);
      },
      [WIDGET, prompt.source, prompt.flags] as const,
      { timeout: opts.timeoutMs ?? 30_000 },
    );
  }
  await input.fill(text);
  await input.press('Enter');
}

/** Opens the command palette (F1) with an empty '>' query. */
export async function openCommandPalette(page: Page): Promise<void> {
  if (await isQuickInputOpen(page)) await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const opened = await quickInputBox(page)
    .waitFor({ state: 'visible', timeout: 3000 })
    .then(
      () => true,
      () => false,
    );
  if (opened) return;
  // Focus was somewhere that swallows F1 (a webview mid-reload): give it to the workbench's status bar and retry.
  await page.locator('.monaco-workbench .part.statusbar').focus();
  await page.keyboard.press('F1');
  await quickInputBox(page).waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Runs a command by its palette title ("Catalyst: Open Chat"). Contributed commands reach the palette some seconds after
 * the workbench appears and the palette does not refresh while open, so it reopens until the row shows up.
 */
export async function runCommand(page: Page, title: string, opts: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    await dismissStrayModal(page, `before running "${title}"`);
    await openCommandPalette(page);
    const row = quickPickRow(page, title);
    try {
      await quickInputBox(page).fill(`>${title}`, { timeout: 5000 });
      await row.waitFor({ state: 'visible', timeout: Math.max(500, Math.min(4000, deadline - Date.now())) });
      await row.click();
      return;
    } catch {
      if (!(await dismissStrayModal(page, `while running "${title}"`))) await page.keyboard.press('Escape');
      if (Date.now() >= deadline) throw new Error(`the command "${title}" did not appear in the command palette`);
    }
  }
}

/**
 * A modal dialog nobody in the test is waiting for (a late confirmation, code-server's reconnect prompt) makes the
 * whole workbench inert, so the palette cannot be typed into. Says what it was (on stderr, so CI logs show it) and
 * cancels it with Escape. Returns whether there was one.
 */
export async function dismissStrayModal(page: Page, when: string): Promise<boolean> {
  const dialog = page.locator('.monaco-dialog-box').filter({ visible: true }).first();
  if (!(await dialog.isVisible().catch(() => false))) return false;
  const text = (await dialog.innerText().catch(() => '')).replace(/\s*\n+\s*/g, ' / ').trim();
  process.stderr.write(`[e2e] a modal dialog was open ${when}; cancelling it: ${text}\n`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
  return true;
}

/** Whether the palette lists a command with this title (opens the palette, looks, closes it). */
export async function paletteHasCommand(page: Page, title: string, timeoutMs = 3000): Promise<boolean> {
  await openCommandPalette(page);
  await quickInputBox(page).fill(`>${title}`);
  const found = await quickPickRow(page, title)
    .waitFor({ state: 'visible', timeout: timeoutMs })
    .then(
      () => true,
      () => false,
    );
  await page.keyboard.press('Escape');
  return found;
}
