/**
 * `set_search_key{provider, api_key, persist?}` → `search_key_set{provider, has_key}`. Unlike upstream, the key is kept
 * in this process's memory only (like `set_key`), unless the client asks for upstream's persistence with `persist: true`
 * (config.json `search_keys`, mode 0600). An unknown provider is upstream's error, but the core keeps running (upstream
 * returns from its command loop there, research §9.2).
 */
import type { CommandOf } from '../../protocol';
import { ConfigStore } from '../config/configStore';
import { isJsonObject } from '../platform/jsonValue';
import type { CoreRuntime } from '../app/coreRuntime';
import { scrubText } from '../runtime/redact';
import { isSearchProvider } from '../web/searchKeys';

export function handleSetSearchKey(rt: CoreRuntime, cmd: CommandOf<'set_search_key'>): void {
  const provider = typeof cmd.provider === 'string' ? cmd.provider.trim().toLowerCase() : '';
  if (!isSearchProvider(provider)) {
    const shown = typeof cmd.provider === 'string' ? cmd.provider : String(cmd.provider);
    rt.emit({
      type: 'error',
      code: 'unknown_provider',
      message: `set_search_key: unknown provider '${shown}' (expected 'exa' or 'tavily')`,
    });
    return;
  }
  const key = typeof cmd.api_key === 'string' ? cmd.api_key.trim() : '';
  if (cmd.persist === true) {
    try {
      persistSearchKey(rt, provider, key);
    } catch (err) {
      rt.emit({
        type: 'error',
        code: 'config_write',
        message: `set_search_key: failed to persist: ${scrubText((err as Error).message, [key, ...rt.secrets()])}`,
      });
      return;
    }
    rt.web.keys.setConfigured(provider, key);
  }
  rt.web.keys.setRuntime(provider, key);
  rt.emit({ type: 'search_key_set', provider, has_key: rt.web.keys.has(provider) });
}

function persistSearchKey(rt: CoreRuntime, provider: string, key: string): void {
  new ConfigStore(rt.config.configDir).update((cfg) => {
    const keys = isJsonObject(cfg.search_keys) ? cfg.search_keys : {};
    if (key) keys[provider] = key;
    else delete keys[provider];
    cfg.search_keys = keys;
  });
}
