/**
 * The turn's lifecycle hooks (research A §7.4): session_start, pre_input and turn_start before a turn (then pre_turn on
 * a turn with images), pre_agent_start and pre_context before each of its model requests, turn_end and session_stop
 * after it. Only pre_input can stop anything (deny); the others are advisory and a failure is skipped.
 */
import { isObject } from './manifest';
import { executeHook, type HookHost } from './hooks';
import type { ChatMessage } from '../providers/types';
import type { HookPoint, Plugin } from './types';

/** A pre_input hook stopped the turn; its message is upstream's `error` text. */
export class InputDeniedError extends Error {}

export interface TurnInputHooks {
  /** upstream's text: the turn ends with this `error`, then `done`. */
  denied?: string;
  /** The prompt as pre_input hooks left it (`modify.text`). */
  text: string;
}

function hooked(plugins: readonly Plugin[], point: HookPoint): Plugin[] {
  return plugins.filter((p) => p.enabled && p.hooks.has(point)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function context(host: HookHost, point: HookPoint, passArgs: boolean, args?: object): object {
  return {
    hook: point,
    tool: '',
    workspace: host.workspace,
    session_id: host.sessionId,
    timestamp: Math.floor(Date.now() / 1000),
    ...(passArgs && args ? { args } : {}),
  };
}

/** Runs an advisory hook point in plugin-name order; failures are skipped. */
export async function runAdvisoryHooks(host: HookHost, plugins: readonly Plugin[], point: HookPoint, args?: object): Promise<void> {
  for (const p of hooked(plugins, point)) {
    const cfg = p.hooks.get(point)!;
    await executeHook(host, point, p.name, cfg, context(host, point, cfg.passArgs, args));
  }
}

/** session_start, then pre_input over `{text}` (a deny or failure stops the turn), then turn_start. */
export async function runBeforeTurnHooks(host: HookHost, plugins: readonly Plugin[], prompt: string): Promise<TurnInputHooks> {
  await runAdvisoryHooks(host, plugins, 'session_start');
  let text = prompt;
  for (const p of hooked(plugins, 'pre_input')) {
    const cfg = p.hooks.get('pre_input')!;
    const result = await executeHook(host, 'pre_input', p.name, cfg, context(host, 'pre_input', cfg.passArgs, { text }));
    if (!result.allow) return { denied: `input denied by plugin '${p.name}' pre_input: ${result.reason}`, text };
    if (isObject(result.modify) && typeof result.modify.text === 'string') text = result.modify.text;
  }
  await runAdvisoryHooks(host, plugins, 'turn_start', { text });
  return { text };
}

/** What the pre_turn hooks chose: the model the last one set with `modify.model`, and that hook's reason. */
export interface PreTurnChoice {
  model?: string;
  reason: string;
}

/**
 * pre_turn, on a turn with images (research A §10 step 4): advisory, so a failure is skipped; each hook sees `args.model`
 * as the hooks before it left it.
 */
export async function runPreTurnHooks(host: HookHost, plugins: readonly Plugin[], args: { model: string }): Promise<PreTurnChoice> {
  const choice: PreTurnChoice = { reason: '' };
  let current = { ...args };
  for (const p of hooked(plugins, 'pre_turn')) {
    const cfg = p.hooks.get('pre_turn')!;
    const result = await executeHook(host, 'pre_turn', p.name, cfg, context(host, 'pre_turn', cfg.passArgs, current));
    if (!isObject(result.modify) || typeof result.modify.model !== 'string' || !result.modify.model) continue;
    choice.model = result.modify.model;
    // An advisory hook's reason comes back as "[plugin] reason"; the hand-off info quotes the reason alone.
    choice.reason = result.reason.startsWith(`[${p.name}] `) ? result.reason.slice(p.name.length + 3) : result.reason;
    current = { ...current, model: choice.model };
  }
  return choice;
}

const MAX_SYSTEM_PROMPT_CHARS = 100 * 1024;
const MAX_CONTEXT_MESSAGES = 500;
const MAX_CONTEXT_BYTES = 8 * 1024 * 1024;
const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Before each model request of a turn (research A §7.4), advisory: pre_agent_start's `modify.system_prompt` replaces
 * the system message and `modify.append_system_prompt` adds a system message after it, for this request only (each at
 * most 100 KiB); then pre_context (args `{messages}`) may replace the request's messages with `modify.messages` (at most
 * 500 messages and 8 MiB, each a chat message). Anything else a hook returns is ignored; the conversation is unchanged.
 */
export async function runBeforeRequestHooks(host: HookHost, plugins: readonly Plugin[], messages: ChatMessage[]): Promise<ChatMessage[]> {
  let out = messages;
  for (const p of hooked(plugins, 'pre_agent_start')) {
    const cfg = p.hooks.get('pre_agent_start')!;
    const { modify } = await executeHook(host, 'pre_agent_start', p.name, cfg, context(host, 'pre_agent_start', cfg.passArgs));
    if (!isObject(modify)) continue;
    const [first, ...rest] = out;
    const replaced = boundedText(modify.system_prompt);
    const appended = boundedText(modify.append_system_prompt);
    const system = first?.role === 'system' ? (replaced !== undefined ? { ...first, content: replaced } : first) : undefined;
    const tail = system ? rest : out;
    out = [...(system ? [system] : []), ...(appended ? [{ role: 'system' as const, content: appended }] : []), ...tail];
  }
  for (const p of hooked(plugins, 'pre_context')) {
    const cfg = p.hooks.get('pre_context')!;
    const { modify } = await executeHook(host, 'pre_context', p.name, cfg, context(host, 'pre_context', cfg.passArgs, { messages: out }));
    if (isObject(modify) && isMessageList(modify.messages)) out = modify.messages;
  }
  return out;
}

function boundedText(v: unknown): string | undefined {
  return typeof v === 'string' && v.length <= MAX_SYSTEM_PROMPT_CHARS ? v : undefined;
}

function isMessageList(v: unknown): v is ChatMessage[] {
  if (!Array.isArray(v) || v.length > MAX_CONTEXT_MESSAGES) return false;
  if (Buffer.byteLength(JSON.stringify(v)) > MAX_CONTEXT_BYTES) return false;
  return v.every(
    (m) =>
      isObject(m) &&
      typeof m.role === 'string' &&
      ROLES.has(m.role) &&
      (m.content === null ||
        typeof m.content === 'string' ||
        (Array.isArray(m.content) && m.content.every((part) => isObject(part) && typeof part.type === 'string'))) &&
      (m.role !== 'tool' || typeof m.tool_call_id === 'string'),
  );
}
