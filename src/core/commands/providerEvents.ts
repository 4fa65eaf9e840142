/** What the client learns about providers: the preset list, the active provider, the model list (shared by the provider, OAuth and plugin handlers). */
import type { ProviderPreset } from '../../protocol';
import { PROVIDER_PRESETS } from '../config/presets';
import type { CoreRuntime } from '../app/coreRuntime';
import type { SessionEventOf } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';
import { refreshPrices } from '../pricing/refreshPrices';

export function presetsEvent(rt: CoreRuntime): SessionEventOf<'provider_presets'> {
  return {
    type: 'provider_presets',
    presets: PROVIDER_PRESETS.map((p): ProviderPreset => {
      const configured = rt.providers.providers.some((c) => c.name === p.id || c.name.startsWith(`${p.id}-`));
      const loggedIn = rt.providers.providers.some((c) => (c.name === p.id || c.name.startsWith(`${p.id}-`)) && rt.providers.isLoggedIn(c));
      return {
        id: p.id,
        label: p.label,
        kind: p.kind,
        base_url: p.baseUrl,
        envVar: p.envVar,
        altEnvs: p.altEnvs,
        description: p.description,
        hasKey: loggedIn || !!rt.env[p.envVar],
        configured,
        loggedIn,
        supportsOauth: presetSupportsOauth(rt, p.id),
      };
    }).concat(oauthPresets(rt)),
  };
}

export function providerChangedEvent(rt: CoreRuntime): SessionEventOf<'provider_changed'> {
  const p = rt.providers.activeConfig;
  return {
    type: 'provider_changed',
    provider: rt.providers.active,
    kind: p?.kind ?? 'openai',
    base_url: p?.baseUrl ?? '',
    has_key: rt.providers.hasKey(rt.providers.active),
  };
}

/** Re-discovers models (for one provider or all) and emits `models`; errors become one `info` line each, keys scrubbed. */
export async function refreshAndEmitModels(rt: CoreRuntime, opts: { force?: boolean; only?: string } = {}): Promise<void> {
  // Prices refresh beside the models, and do not hold the model list back.
  const prices = refreshPrices(rt, { force: opts.force });
  const errors = await rt.providers.refresh(opts);
  for (const e of errors) rt.emit({ type: 'info', message: `model discovery failed for ${scrubText(e, rt.secrets())}` });
  rt.emit({ type: 'models', models: rt.providers.models() });
  await prices;
}

/** One preset per plugin OAuth provider whose id is not a built-in preset's (upstream's `main.rs:440-466`). */
export function oauthPresets(rt: CoreRuntime): ProviderPreset[] {
  const builtIn = new Set(PROVIDER_PRESETS.map((p) => p.id));
  return rt.plugins.oauth
    .providers()
    .filter((cfg) => !builtIn.has(cfg.providerId))
    .map((cfg) => {
      const hasKey = rt.plugins.oauth.credentialsExist(cfg);
      const configured = !!rt.providers.find(cfg.providerId);
      return {
        id: cfg.providerId,
        label: cfg.label,
        kind: cfg.kind,
        base_url: cfg.baseUrl,
        envVar: null,
        altEnvs: [],
        description: cfg.description,
        hasKey,
        configured,
        loggedIn: configured && hasKey,
        supportsOauth: true,
      };
    });
}

/**
 * Runs a plugin change and, when it changed which OAuth providers the plugins serve, sends `provider_presets` again:
 * Log In… then lists (or drops) them without a restart.
 */
export function refreshingOauthPresets(rt: CoreRuntime, change: () => void): void {
  const ids = () =>
    rt.plugins.oauth
      .providers()
      .map((c) => `${c.plugin}/${c.providerId}`)
      .join('\n');
  const before = ids();
  try {
    change();
  } finally {
    if (ids() !== before) rt.emit(presetsEvent(rt));
  }
}

/** Whether a built-in preset can also log in through a plugin. */
export const presetSupportsOauth = (rt: CoreRuntime, id: string): boolean => !!rt.plugins.oauth.byId(id)?.scripts.login;
