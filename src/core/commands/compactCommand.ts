import type { CommandOf } from '../../protocol';
import { compactConversation } from '../agent/compaction';
import type { CoreRuntime } from '../coreRuntime';
import { scrubText } from '../runtime/redact';
import { contextWindow } from './statusCommands';

/** `compact`: the model summarizes every turn but the last; the summary replaces them in the session file. */
export function handleCompact(rt: CoreRuntime, cmd: CommandOf<'compact'>): void {
  if (rt.runs.active) return void rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; compact after it finishes' });
  const model = rt.lastModel;
  const providerName = model ? rt.providers.providerForModel(model) : undefined;
  const provider = providerName ? rt.providers.resolve(providerName) : undefined;
  if (!model || !provider) return void rt.emit({ type: 'error', code: 'no_model', message: 'compact needs a model: send a prompt first' });
  const keepFrom = rt.conversation.lastTurnStart();
  if (keepFrom <= 0) return void rt.emit({ type: 'info', message: 'nothing to compact yet' });
  rt.runs.start(rt.sessionId, 'compact', async (scope) => {
    try {
      const done = await compactConversation({
        conversation: rt.conversation, provider, model, systemPrompt: rt.systemPrompt(), contextWindow: contextWindow(rt), trigger: 'manual',
        instructions: typeof cmd.instructions === 'string' && cmd.instructions ? cmd.instructions : rt.config.compactInstructions,
        signal: scope.signal, idleTimeoutMs: rt.config.idleTimeoutSecs * 1000, keepFrom, emit: (e) => rt.emitInRun(scope, e),
      });
      if (done) rt.usage.compactions++;
    } catch (err) {
      rt.emitInRun(scope, { type: 'error', code: 'compact_failed', message: `compaction failed: ${scrubText((err as Error).message, rt.secrets())}` });
    }
  });
}
