import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { fetchProviderUsage } from '../usage/providerUsage';

/**
 * `usage{model?}` → `usage`: the model is the given one, else the last used, else the first listed; its provider is
 * asked for plan and rate-limit windows (upstream's usage arm). Not awaited: the request may take up to its 10 s
 * timeout, and the commands after it (an abort) must not wait behind it.
 */
export function handleUsage(rt: CoreRuntime, cmd: CommandOf<'usage'>): void {
  const requested = typeof cmd.model === 'string' ? cmd.model.trim() : '';
  const model = requested || rt.lastModel || rt.providers.models()[0]?.id || '';
  const name = (model && rt.providers.providerForModel(model)) || rt.providers.active;
  const provider = rt.providers.resolve(name);
  const base = {
    type: 'usage' as const,
    provider: name,
    provider_kind: provider?.kind ?? 'openai',
    model,
    base_url: provider?.baseUrl ?? '',
  };
  if (!provider) {
    rt.emit({ ...base, available: false, message: `Provider \`${name || 'unknown'}\` is not configured.`, windows: [] });
    return;
  }
  void fetchProviderUsage(provider).then(
    (usage) => rt.emit({ ...base, ...usage }),
    (err: Error) => rt.log(`usage failed: ${err.stack ?? err}`),
  );
}
