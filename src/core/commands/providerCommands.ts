import type { CommandOf } from '../../protocol';
import { ConfigStore, removeProvider, upsertProvider } from '../config/configStore';
import { PROVIDER_PRESETS } from '../config/presets';
import { parseProvider, providerFromPreset } from '../config/providers';
import type { CoreRuntime } from '../app/coreRuntime';
import { discoverModels } from '../providers/models';
import { scrubText } from '../runtime/redact';
import { logoutOauth } from './oauthCommands';
import { presetsEvent, providerChangedEvent, refreshAndEmitModels } from './providerEvents';

export async function handleLogin(rt: CoreRuntime, cmd: CommandOf<'login'>): Promise<void> {
  const preset = PROVIDER_PRESETS.find((p) => p.id === cmd.preset);
  if (!preset) {
    rt.emit({
      type: 'error',
      code: 'unknown_preset',
      message: `unknown provider preset '${String(cmd.preset)}'; available: ${PROVIDER_PRESETS.map((p) => p.id).join(', ')}`,
    });
    return;
  }
  const key = typeof cmd.api_key === 'string' && cmd.api_key.trim() ? cmd.api_key.trim() : undefined;
  if (!key) {
    rt.emit({ type: 'error', code: 'missing_key', message: `no API key provided for '${preset.id}' — paste a key via /login` });
    return;
  }
  const configs = providerFromPreset(preset, key);
  persist(rt, (cfg) => configs.forEach((c, i) => upsertProvider(cfg, c, i === 0)));
  for (const c of configs) rt.providers.upsert(c);
  rt.providers.active = configs[0].name;
  rt.emit({ type: 'info', message: `logged into ${preset.label}.` });
  rt.emit(providerChangedEvent(rt));
  rt.emit({ type: 'authed', ok: true, provider: configs[0].name });
  await refreshAndEmitModels(rt);
}

export async function handleLogout(rt: CoreRuntime, cmd: CommandOf<'logout'>): Promise<void> {
  const name = String(cmd.provider ?? '');
  const names = rt.providers.providers.map((p) => p.name).filter((n) => n === name || n.startsWith(`${name}-`));
  const wasLoggedIn = names.some((n) => rt.providers.loggedIn(n));
  const hadOauth = await logoutOauth(rt, name);
  if (!wasLoggedIn && !hadOauth) {
    rt.emit({ type: 'error', code: 'not_logged_in', message: `not logged into '${name}'` });
    return;
  }
  persist(rt, (cfg) => names.forEach((n) => removeProvider(cfg, n)));
  for (const n of names) rt.providers.remove(n);
  rt.emit({ type: 'info', message: `logged out of ${name}.` });
  rt.emit(providerChangedEvent(rt));
  rt.emit({ type: 'authed', ok: rt.providers.anyLoggedIn(), provider: rt.providers.active });
  rt.emit({ type: 'models', models: rt.providers.models() });
}

export async function handleSetKey(rt: CoreRuntime, cmd: CommandOf<'set_key'>): Promise<void> {
  const name = typeof cmd.provider === 'string' && cmd.provider ? cmd.provider : rt.providers.active;
  if (!rt.providers.find(name)) {
    rt.emit({ type: 'error', code: 'unknown_provider', message: `unknown provider '${name}'` });
    return;
  }
  if (typeof cmd.api_key !== 'string' || !cmd.api_key.trim()) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'set_key needs a non-empty api_key' });
    return;
  }
  rt.providers.setRuntimeKey(name, cmd.api_key.trim());
  rt.emit({ type: 'authed', ok: true, provider: name });
  await refreshAndEmitModels(rt, { only: name });
}

export async function handleSetProvider(rt: CoreRuntime, cmd: CommandOf<'set_provider'>): Promise<void> {
  const name = String(cmd.name ?? '');
  if (!rt.providers.find(name)) {
    rt.emit({ type: 'error', code: 'unknown_provider', message: `unknown provider '${name}'; not switching` });
    return;
  }
  rt.providers.active = name;
  persist(rt, (cfg) => (cfg.activeProvider = name));
  rt.emit(providerChangedEvent(rt));
  if (rt.providers.loggedIn(name)) rt.emit({ type: 'authed', ok: true, provider: name });
  await refreshAndEmitModels(rt, { only: name });
}

export async function handleAddCustomProvider(rt: CoreRuntime, cmd: CommandOf<'add_custom_provider'>): Promise<void> {
  const parsed = parseProvider(cmd);
  if ('error' in parsed) {
    rt.emit({ type: 'error', code: 'invalid_provider', message: `add_custom_provider: ${parsed.error}` });
    return;
  }
  persist(rt, (cfg) => upsertProvider(cfg, parsed, true));
  rt.providers.upsert(parsed);
  rt.providers.active = parsed.name;
  rt.emit(providerChangedEvent(rt));
  // The client's set_key comes next and logs in and lists with the key (see AddCustomProviderCommand.key_follows).
  if (cmd.key_follows === true) return;
  if (rt.providers.loggedIn(parsed.name)) rt.emit({ type: 'authed', ok: true, provider: parsed.name });
  await refreshAndEmitModels(rt, { only: parsed.name });
}

export async function handleDiscoverProviderModels(rt: CoreRuntime, cmd: CommandOf<'discover_provider_models'>): Promise<void> {
  const parsed = parseProvider({ ...cmd, name: 'preview' });
  if ('error' in parsed) {
    rt.emit({
      type: 'provider_models_preview',
      models: [],
      base_url: typeof cmd.base_url === 'string' ? cmd.base_url.slice(0, 2000) : '',
      count: 0,
      error: parsed.error,
    });
    return;
  }
  const apiKey = typeof cmd.api_key === 'string' ? cmd.api_key : undefined;
  try {
    const models = await discoverModels(
      { name: 'preview', kind: parsed.kind, baseUrl: parsed.baseUrl, apiKey, headers: parsed.headers },
      { force: true },
    );
    rt.emit({ type: 'provider_models_preview', models, base_url: parsed.baseUrl, count: models.length });
  } catch (err) {
    rt.emit({
      type: 'provider_models_preview',
      models: [],
      base_url: parsed.baseUrl,
      count: 0,
      error: scrubText((err as Error).message, apiKey ? [apiKey] : []),
    });
  }
}

export async function handleRefreshModels(rt: CoreRuntime): Promise<void> {
  rt.emit({ type: 'info', message: 'refreshing models…' });
  await refreshAndEmitModels(rt, { force: true });
  rt.emit(presetsEvent(rt));
  const providers: Record<string, string[]> = {};
  for (const m of rt.providers.models()) (providers[m.provider ?? rt.providers.active] ??= []).push(m.id);
  rt.emit({ type: 'models_refreshed', count: rt.providers.models().length, providers });
}

function persist(rt: CoreRuntime, mutate: (cfg: Record<string, unknown>) => void): void {
  try {
    new ConfigStore(rt.config.configDir).update(mutate);
  } catch (err) {
    rt.emit({ type: 'error', code: 'config_write', message: `could not save the configuration: ${(err as Error).message}` });
  }
}
