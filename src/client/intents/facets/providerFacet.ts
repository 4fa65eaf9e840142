import type { CommandOf, HeadersSpec, ProviderKind, SearchProvider } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { IntentContext } from '../intentContext';

export type ProviderIntents = ReturnType<typeof providerFacet>;

export interface CustomProviderSpec {
  name: string;
  baseUrl: string;
  kind: ProviderKind;
  headers?: HeadersSpec;
  /** A `setKey` for this provider follows: the core waits for it before listing the models (`key_follows`). */
  keyFollows?: boolean;
}

/** The providers the core's models come from: endpoints, keys (for this core process only), logins. */
export function providerFacet(ctx: IntentContext) {
  return {
    /** A key for this core process only (never persisted by the core); the caller keeps it in SecretStorage. */
    setKey(provider: string, key: string): boolean {
      if (typeof key !== 'string' || !key.trim()) return ctx.refuse('The API key is empty.');
      const cmd: CommandOf<'set_key'> = { type: 'set_key', api_key: key.trim() };
      if (provider) cmd.provider = provider;
      return ctx.sendWhenReady(cmd);
    },

    /**
     * A web-search key ("" clears it) for this core process only: sent only to a core that keeps it in memory
     * (`runtime_search_keys`); upstream's core would write it to config.json. `quiet`: no warning when the core lacks it.
     */
    setSearchKey(provider: SearchProvider, key: string, quiet = false): boolean {
      if (ctx.state.core.status !== 'ready') return false;
      if (quiet && !ctx.announces(UI_CAPABILITIES.runtimeSearchKeys)) return false;
      return (
        ctx.requireCapability(UI_CAPABILITIES.runtimeSearchKeys, 'web search keys') &&
        ctx.send({ type: 'set_search_key', provider, api_key: key.trim() })
      );
    },

    /** Registers an endpoint without a key: keys go through `setKey`, so the core never writes them to config.json. */
    addCustomProvider(spec: CustomProviderSpec): boolean {
      const name = spec.name?.trim();
      if (!name) return ctx.refuse('The provider needs a name.');
      if (!isHttpUrl(spec.baseUrl)) return ctx.refuse('The base URL must be an http:// or https:// URL.');
      const cmd: CommandOf<'add_custom_provider'> = { type: 'add_custom_provider', name, base_url: spec.baseUrl.trim(), kind: spec.kind };
      if (spec.headers) cmd.headers = spec.headers;
      if (spec.keyFollows) cmd.key_follows = true;
      return ctx.sendWhenReady(cmd);
    },

    logout(provider: string): boolean {
      if (!provider) return ctx.refuse('No provider was given.');
      return ctx.sendWhenReady({ type: 'logout', provider });
    },

    /** `login_oauth` (a preset with supportsOauth): the core answers with oauth_prompt (or an error) and ends with its success or failure texts. */
    loginOauth(preset: string): boolean {
      if (!preset) return ctx.refuse('No provider was given.');
      return ctx.sendWhenReady({ type: 'login_oauth', preset });
    },

    /** `oauth_code`: the code (or callback URL) the user pasted for a pending OAuth login. */
    oauthCode(code: string): boolean {
      const trimmed = code.trim();
      if (!trimmed) return ctx.refuse('Paste the code the login page showed.');
      return ctx.sendWhenReady({ type: 'oauth_code', code: trimmed });
    },

    refreshModels(): boolean {
      return ctx.sendWhenReady({ type: 'refresh_models' });
    },

    /** `set_provider`: the core makes `name` its active provider and lists its models first. */
    setProvider(name: string): boolean {
      if (typeof name !== 'string' || !name) return ctx.refuse('No provider was given.');
      return ctx.sendWhenReady({ type: 'set_provider', name });
    },
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
