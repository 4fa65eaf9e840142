import type { FrameLocator, Locator, Page } from 'playwright-core';
import { TEST_IDS } from '../../../src/shared/webviewMessages';
import type { RecordedRequest, ScriptedResponse, ScriptedModelServer } from '../../support/scriptedModelServer';
import { abortRun, testId, waitForIdle } from './chatActions';
import { byTestId } from './chatView';
import { proposalTabs } from './diffEditor';
import { runCommand } from './quickInput';
import { waitUntil } from './wait';

/** Approvals as the chat shows them, and what the model was told about them (issue #4). */

export type ApprovalCardState = 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';

/** The newest approval card mentioning `text` (a path, a command). */
export function approvalCard(chat: FrameLocator, text: string | RegExp): Locator {
  return chat.locator(byTestId(TEST_IDS.approvalCard)).filter({ hasText: text }).last();
}

/** Waits until the card's data-state is `state`. */
export async function waitForCardState(card: Locator, state: ApprovalCardState, timeoutMs = 15_000): Promise<void> {
  let last: string | null = null;
  try {
    await waitUntil(
      async () => {
        last = await card.getAttribute('data-state', { timeout: 2000 });
        return last === state;
      },
      { timeoutMs, what: `the approval card to show ${state}` },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message} (it shows ${last ?? 'nothing'})`);
  }
}

export function chatRequests(model: ScriptedModelServer): RecordedRequest[] {
  return model.requests.filter((r) => r.method === 'POST' && /\/(chat\/completions|messages)$/.test(r.path.split('?')[0]));
}

/** The tool result the model was sent for `callId` (OpenAI `role: tool` message or Anthropic `tool_result` block), newest request first. */
export function toolResultSent(model: ScriptedModelServer, callId: string): string | undefined {
  const requests = chatRequests(model);
  for (let i = requests.length - 1; i >= 0; i--) {
    for (const message of (requests[i].body?.messages ?? []) as any[]) {
      if (message?.role === 'tool' && message.tool_call_id === callId) return textOf(message.content);
      if (Array.isArray(message?.content)) {
        for (const block of message.content) {
          if (block?.type === 'tool_result' && block.tool_use_id === callId) return textOf(block.content);
        }
      }
    }
  }
  return undefined;
}

/** Waits for the model to have been sent the tool result of `callId`; returns its text. */
export async function waitForToolResultSent(model: ScriptedModelServer, callId: string, timeoutMs = 30_000): Promise<string> {
  return waitUntil(() => toolResultSent(model, callId), { timeoutMs, what: `the model to be sent the result of tool call ${callId}` });
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : (c?.text ?? JSON.stringify(c)))).join('');
  return JSON.stringify(content ?? '');
}

/** A scripted model turn that calls one tool (then the core runs it, asking for approval as the mode says). */
export function toolCallTurn(id: string, name: string, args: object, text?: string): ScriptedResponse {
  return { steps: [...(text ? [{ text }] : []), { toolCall: { id, name, arguments: args } }] };
}

/** A scripted model turn that only answers with text. */
export function textTurn(text: string): ScriptedResponse {
  return { steps: [{ text }] };
}

/** `edit` arguments: search/replace pairs on one file. */
export function editArgs(path: string, ...edits: Array<[search: string, replace: string]>): object {
  return { path, edits: edits.map(([search, replace]) => ({ search, replace })) };
}

/**
 * Consumes scripted responses a failed check left queued (so the next check's script lines up): each POST to the
 * server takes one, as the core's request would have.
 */
export async function drainScript(model: ScriptedModelServer): Promise<number> {
  let drained = 0;
  while (model.pending > 0 && drained < 20) {
    const res = await fetch(`${model.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model":"drain"}',
    });
    await res.text();
    drained++;
  }
  return drained;
}

/**
 * Sends a prompt from the chat composer without depending on focus: with an editor open, the workbench may hand focus
 * back to the editor while the keys of a typed prompt are still coming (they would land in the file), and Playwright's
 * `fill` also focuses first and inserts after. So the value is set in the page and the textarea's own input event fired,
 * as typing does; then the send button is clicked. When the composer does not keep the text, the error says whether the
 * webview document was replaced meanwhile (a reload loses a draft typed < 250 ms before it) or the same page cleared it.
 */
export async function promptAgent(chat: FrameLocator, text: string): Promise<void> {
  const composer = chat.locator(`[data-testid="${TEST_IDS.composer}"]`).first();
  await composer.waitFor({ state: 'visible', timeout: 30_000 });
  const documentStarted = await composer.evaluate((el, value) => {
    const textarea = el as unknown as { value: string; dispatchEvent(event: unknown): boolean };
    textarea.value = value;
    textarea.dispatchEvent(new (globalThis as any).InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
    return (globalThis as any).performance.timeOrigin as number;
  }, text);
  const send = chat.locator(`[data-testid="${TEST_IDS.sendButton}"]`).first();
  try {
    await waitUntil(async () => (await composer.inputValue()) === text && (await send.isEnabled()), {
      timeoutMs: 10_000,
      what: 'the prompt in the composer and Send enabled',
    });
  } catch (error) {
    const now = await composer
      .evaluate((el) => ({
        value: (el as unknown as { value: string }).value,
        started: (globalThis as any).performance.timeOrigin as number,
      }))
      .catch((e: Error) => ({ value: `(unreadable: ${e.message.split('\n')[0]})`, started: Number.NaN }));
    const where =
      now.started === documentStarted ? 'the same webview document' : `a new webview document (was ${documentStarted}, now ${now.started})`;
    throw new Error(`${(error as Error).message}; the composer reads ${JSON.stringify(now.value)} in ${where}`);
  }
  await send.click();
  await waitUntil(async () => (await composer.inputValue()) === '', { timeoutMs: 10_000, what: 'the composer to clear after Send' });
}

/**
 * `catalystCode.core.env` for a launch, as workspace-folder settings (`files` entry). The setting is machine-overridable:
 * in code-server (a remote window) the same value in User settings is applied or ignored depending on a startup race
 * (the core started without it in about half of our launches), while folder (or Machine) settings always apply.
 */
export function coreEnvFolderSettings(coreEnv: Record<string, string>): Record<string, string> {
  return { '.vscode/settings.json': `${JSON.stringify({ 'catalystCode.core.env': coreEnv }, null, 2)}\n` };
}

/**
 * Puts the session back to idle after a check that failed half-way: aborts a running turn, drops unused scripted
 * replies, closes leftover proposal tabs. Each check of a suite starts with it, so one failure does not cascade.
 */
export async function settleAfterFailedCheck(page: Page, chat: FrameLocator, model: ScriptedModelServer): Promise<void> {
  const abort = testId(chat, TEST_IDS.abortButton).first();
  if (await abort.isVisible().catch(() => false)) {
    await abortRun(chat);
    await waitForIdle(chat, 15_000);
  }
  await drainScript(model);
  if ((await proposalTabs(page).count()) > 0) await runCommand(page, 'View: Close All Editors');
}
