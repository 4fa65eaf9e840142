import type { CommandOf } from '../../protocol';
import { compactConversation, keptTailStart, unchangedCompactionEvents } from '../agent/compaction';
import type { CoreRuntime } from '../app/coreRuntime';
import { scrubText } from '../runtime/redact';
import { contextWindow } from '../app/contextWindow';

/**
 * `compact`: the model summarizes the turns before upstream's kept tail; the summary replaces them in the session file.
 * When the kept tail is the whole conversation there is nothing to summarize: no model call, and the context stays as it is.
 */
export function handleCompact(rt: CoreRuntime, cmd: CommandOf<'compact'>): void {
  if (rt.runs.active) return void rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; compact after it finishes' });
  const messages = rt.conversation.all;
  if (messages.length < 2) return void rt.emit({ type: 'info', message: 'nothing to compact yet' });
  const window = contextWindow(rt);
  const keepFrom = keptTailStart(messages, window);
  if (keepFrom <= 0) {
    for (const event of unchangedCompactionEvents(messages, window, 'manual')) rt.emit(event);
    return;
  }
  const model = rt.lastModel;
  const providerName = model ? rt.providers.providerForModel(model) : undefined;
  const provider = providerName ? rt.providers.resolve(providerName) : undefined;
  if (!model || !provider) return void rt.emit({ type: 'error', code: 'no_model', message: 'compact needs a model: send a prompt first' });
  rt.runs.start(rt.sessionId, 'compact', async (scope) => {
    try {
      await rt.plugins.beforeCompact('manual');
      const done = await compactConversation({
        conversation: rt.conversation,
        provider,
        model,
        systemPrompt: rt.systemPrompt(),
        contextWindow: window,
        trigger: 'manual',
        instructions: typeof cmd.instructions === 'string' && cmd.instructions ? cmd.instructions : rt.config.compactInstructions,
        signal: scope.signal,
        idleTimeoutMs: rt.config.idleTimeoutSecs * 1000,
        keepFrom,
        emit: (e) => rt.emitInRun(scope, e),
      });
      if (done) rt.usage.compactions++;
    } catch (err) {
      rt.emitInRun(scope, {
        type: 'error',
        code: 'compact_failed',
        message: `compaction failed: ${scrubText((err as Error).message, rt.secrets())}`,
      });
    }
  });
}
