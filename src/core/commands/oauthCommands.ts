/** `login_oauth`, `oauth_code`, and what plugin OAuth adds to `provider_presets` and `logout` (research A §8). */
import type { CommandOf } from '../../protocol';
import { ConfigStore, upsertProvider } from '../config/configStore';
import { PROVIDER_PRESETS } from '../config/presets';
import { providerFromPreset, type ProviderConfig } from '../config/providers';
import type { CoreRuntime } from '../app/coreRuntime';
import type { OauthConfig } from '../plugins/oauthManifest';
import { OauthLogins } from '../plugins/oauthLogin';
import { providerChangedEvent, refreshAndEmitModels } from './providerEvents';

const logins = new WeakMap<CoreRuntime, OauthLogins>();

function loginsOf(rt: CoreRuntime): OauthLogins {
  let l = logins.get(rt);
  if (!l) {
    const oauth = rt.plugins.oauth;
    l = new OauthLogins({
      ...oauth.host,
      emit: (e) => rt.emit(e),
      finalize: (cfg) => finalizeOauth(rt, cfg),
      provider: (id) => oauth.byId(id),
      log: (m) => rt.log(m),
    });
    logins.set(rt, l);
  }
  return l;
}

export async function handleLoginOauth(rt: CoreRuntime, cmd: CommandOf<'login_oauth'>): Promise<void> {
  const preset = typeof cmd.preset === 'string' ? cmd.preset.trim() : '';
  const cfg = preset ? rt.plugins.oauth.byId(preset) : undefined;
  if (!cfg?.scripts.login) {
    // Upstream's core exits after this error; ours keeps answering.
    rt.emit({
      type: 'error',
      code: 'no_oauth_provider',
      message: `'${preset.slice(0, 200)}' has no plugin OAuth login — install a plugin that declares oauth.provider_id="${preset.slice(0, 200)}", or paste an API key via /login`,
    });
    return;
  }
  // A background task, as upstream's: the web flow waits up to 300 s for the redirect, and oauth_code must get through.
  void loginsOf(rt).login(cfg);
}

export async function handleOauthCode(rt: CoreRuntime, cmd: CommandOf<'oauth_code'>): Promise<void> {
  const code = typeof cmd.code === 'string' ? cmd.code.trim() : '';
  if (!code && loginsOf(rt).hasPending()) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'oauth_code needs a non-empty code' });
    return;
  }
  await loginsOf(rt).submitCode(code);
}

/** upstream's `finalize_oauth`: the provider is configured (once), made active and persisted; then the success events. */
async function finalizeOauth(rt: CoreRuntime, cfg: OauthConfig): Promise<void> {
  // A token cached from an earlier login must not outlive the new one.
  rt.plugins.oauth.tokens.drop(cfg.providerId);
  let configs: ProviderConfig[] = rt.providers.providers.filter((p) => p.name === cfg.providerId);
  if (configs.length === 0) {
    const preset = PROVIDER_PRESETS.find((p) => p.id === cfg.providerId);
    configs = preset
      ? providerFromPreset(preset)
      : [{ name: cfg.providerId, kind: cfg.kind, baseUrl: cfg.baseUrl, headers: Object.fromEntries(cfg.headers) }];
    for (const c of configs) rt.providers.upsert(c);
  }
  rt.providers.active = configs[0].name;
  try {
    new ConfigStore(rt.config.configDir).update((file) => configs.forEach((c, i) => upsertProvider(file, c, i === 0)));
  } catch (err) {
    rt.emit({ type: 'error', code: 'config_write', message: `could not save the configuration: ${(err as Error).message}` });
  }
  rt.emit({ type: 'info', message: `logged into ${cfg.label} via OAuth — you're signed in. Pick a model with /models if needed.` });
  rt.emit({ type: 'authed', ok: true });
  rt.emit(providerChangedEvent(rt));
  await refreshAndEmitModels(rt);
  const all = rt.providers.models();
  const mine = all.filter((m) => configs.some((c) => c.name === m.provider)).length;
  rt.emit({
    type: 'info',
    message: `OAuth ready: ${mine} ${cfg.label} model(s) available (${all.length} total across providers).`,
  });
}

/** logout's OAuth part: the token file, `clear`, the cache. True when `provider` is a plugin OAuth provider with credentials. */
export async function logoutOauth(rt: CoreRuntime, provider: string): Promise<boolean> {
  const config = rt.providers.find(provider);
  const cfg = config ? rt.plugins.oauth.forProvider(config) : rt.plugins.oauth.byId(provider);
  if (!cfg) return false;
  const had = rt.plugins.oauth.credentialsExist(cfg);
  await rt.plugins.oauth.logout(cfg);
  return had;
}
