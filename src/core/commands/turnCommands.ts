import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { cancelActive, startOrQueue, startTurn } from '../app/turns';
import type { QueuedPrompt } from '../runtime/runCoordinator';
import { badCommandField, type FieldSpec } from './commandFields';

/** `send`: starts a turn, or queues it one deep while a turn is running (research §1.3 "Turn queueing"). */
export function handleSend(rt: CoreRuntime, cmd: CommandOf<'send'>): void {
  const prompt = toQueued(rt, cmd);
  if (prompt) startOrQueue(rt, prompt);
}

/** `steer`: interrupts the running turn and starts a new one with this prompt; without a running turn it is a send. */
export function handleSteer(rt: CoreRuntime, cmd: CommandOf<'steer'>): void {
  const prompt = toQueued(rt, { ...cmd, images: undefined });
  if (!prompt) return;
  rt.emit({ type: 'steer', prompt: prompt.prompt });
  if (cancelActive(rt, 'steering')) rt.emit({ type: 'aborted' });
  startTurn(rt, prompt);
}

export function handleAbort(rt: CoreRuntime): void {
  rt.runs.queued = undefined;
  cancelActive(rt, 'abort');
  rt.emit({ type: 'aborted' });
}

export function handleClearQueue(rt: CoreRuntime): void {
  const had = !!rt.runs.queued;
  rt.runs.queued = undefined;
  rt.emit({ type: 'info', message: had ? 'queue cleared' : 'queue already empty' });
}

/** The fields of `send` and `steer` as upstream's structs type them (`steer` has no images: the caller drops them). */
const TURN_FIELDS: readonly FieldSpec[] = [
  { name: 'prompt', type: 'string', required: true },
  { name: 'model', type: 'string', required: true },
  { name: 'provider', type: 'string', required: false },
  { name: 'reasoning_effort', type: 'string', required: false },
  { name: 'images', type: 'string[]', required: false },
];

function toQueued(
  rt: CoreRuntime,
  cmd: { prompt?: unknown; model?: unknown; provider?: unknown; reasoning_effort?: unknown; images?: unknown },
): QueuedPrompt | undefined {
  const bad = badCommandField(cmd, TURN_FIELDS);
  if (bad) {
    rt.emit({ type: 'error', code: 'invalid_command', message: bad });
    return undefined;
  }
  if (typeof cmd.prompt !== 'string' || !cmd.prompt.trim()) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'prompt must be a non-empty string' });
    return undefined;
  }
  if (typeof cmd.model !== 'string' || !cmd.model) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'model is required' });
    return undefined;
  }
  return {
    prompt: cmd.prompt,
    model: cmd.model,
    provider: typeof cmd.provider === 'string' ? cmd.provider : undefined,
    reasoning_effort: typeof cmd.reasoning_effort === 'string' ? cmd.reasoning_effort : 'medium',
    images: Array.isArray(cmd.images) ? cmd.images.filter((i): i is string => typeof i === 'string') : undefined,
  };
}
