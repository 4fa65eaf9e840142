import type { ModelInfo } from '../../protocol';
import type { CoreConfig } from '../config/config';
import { DEFAULT_PROVIDER_NAME } from '../config/coreConfig';
import { isKeylessLocal } from '../config/keylessLocal';
import { resolveApiKey } from '../config/apiKey';
import type { ProviderConfig } from '../config/providers';
import { builtInModels } from '../providers/builtInModels';
import { discoverModels } from '../providers/models';
import type { ResolvedProvider } from '../providers/types';

/** Plugin OAuth as the registry sees it (plugins/pluginOauth.ts): who has credentials, and how a request gets them. */
export interface ProviderOauth {
  /** A token file (or detect_path) exists for the plugin provider serving `p`: upstream's `has_oauth_creds`. */
  hasCredentials(p: ProviderConfig): boolean;
  authorizer(p: ProviderConfig): ResolvedProvider['authorize'];
  secrets(): string[];
}

/**
 * The configured providers, their keys (runtime keys from set_key never persist) and the aggregated model list.
 * Models come from each logged-in provider's discovery (cached) plus its models_override entries. While no provider
 * is logged in, the active one is listed without a key, as upstream does (Umans' list is public; offline, its
 * built-in list stands in).
 */
export class ProviderRegistry {
  private runtimeKeys: Record<string, string>;
  private modelsByProvider = new Map<string, ModelInfo[]>();
  /** Providers whose current list came without a key (a keyless local one): once a key arrives, it is listed again. */
  private listedWithoutKey = new Set<string>();
  /** The active provider's list made while no provider was logged in; shown only while that is still so. */
  private listedLoggedOut: { provider: string; models: ModelInfo[] } | undefined;
  active: string;
  /** Set once the plugins are loaded (coreRuntime.ts). */
  oauth: ProviderOauth | undefined;

  constructor(
    private readonly config: CoreConfig,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.runtimeKeys = { ...config.providerKeys };
    this.active = this.pickActive(config.activeProvider);
  }

  get providers(): readonly ProviderConfig[] {
    return this.config.providers;
  }

  get activeConfig(): ProviderConfig | undefined {
    return this.find(this.active);
  }

  find(name: string): ProviderConfig | undefined {
    return this.config.providers.find((p) => p.name === name);
  }

  keyFor(p: ProviderConfig): string | undefined {
    return resolveApiKey(p, this.config, this.env, this.runtimeKeys);
  }

  /** Every secret currently known, so error text can be scrubbed of them. */
  knownSecrets(): string[] {
    const keys = this.config.providers.map((p) => this.keyFor(p)).filter((k): k is string => !!k);
    return [...keys, ...(this.oauth?.secrets() ?? [])];
  }

  hasKey(name: string): boolean {
    const p = this.find(name);
    return !!p && (!!this.keyFor(p) || !!this.oauth?.hasCredentials(p));
  }

  /** Usable: it has a key, plugin OAuth credentials, or it is a keyless local server (see keylessLocal.ts). */
  isLoggedIn(p: ProviderConfig): boolean {
    return !!this.keyFor(p) || isKeylessLocal(p) || !!this.oauth?.hasCredentials(p);
  }

  loggedIn(name: string): boolean {
    const p = this.find(name);
    return !!p && this.isLoggedIn(p);
  }

  anyLoggedIn(): boolean {
    return this.config.providers.some((p) => this.isLoggedIn(p));
  }

  setRuntimeKey(name: string, key: string): void {
    this.runtimeKeys[name] = key;
  }

  dropRuntimeKey(name: string): void {
    delete this.runtimeKeys[name];
  }

  upsert(p: ProviderConfig): void {
    const i = this.config.providers.findIndex((x) => x.name === p.name);
    if (i >= 0) this.config.providers[i] = p;
    else this.config.providers.push(p);
  }

  remove(name: string): boolean {
    const i = this.config.providers.findIndex((x) => x.name === name);
    if (i < 0) return false;
    this.config.providers.splice(i, 1);
    this.modelsByProvider.delete(name);
    this.listedWithoutKey.delete(name);
    delete this.runtimeKeys[name];
    if (this.active === name) this.active = this.pickActive(undefined);
    return true;
  }

  resolve(name: string): ResolvedProvider | undefined {
    const p = this.find(name);
    if (!p) return undefined;
    const apiKey = this.keyFor(p);
    const authorize = apiKey ? undefined : this.oauth?.authorizer(p);
    return {
      name: p.name,
      kind: p.kind,
      baseUrl: p.baseUrl,
      apiKey,
      headers: p.headers,
      modelsEndpoint: p.modelsEndpoint,
      ...(authorize ? { authorize } : {}),
    };
  }

  /** All known models, the active provider's first. */
  models(): ModelInfo[] {
    const order = [this.active, ...this.config.providers.map((p) => p.name).filter((n) => n !== this.active)];
    return order.flatMap((n) => this.modelsByProvider.get(n) ?? this.loggedOutModels(n) ?? this.overrideModels(n));
  }

  /** Which provider serves `model` (an explicit provider wins, then the active one, then any that lists it). */
  providerForModel(model: string, explicit?: string): string | undefined {
    if (explicit && this.find(explicit)) return explicit;
    const all = this.models();
    if (all.length === 0) return this.activeConfig?.name;
    const owners = all.filter((m) => m.id === model).map((m) => m.provider ?? this.active);
    if (owners.includes(this.active)) return this.active;
    return owners[0];
  }

  modelInfo(model: string, provider?: string): ModelInfo | undefined {
    return this.models().find((m) => m.id === model && (!provider || (m.provider ?? this.active) === provider));
  }

  /** Refreshes the models of every logged-in provider; failures keep the previous list and are returned as messages. */
  async refresh(opts: { force?: boolean; signal?: AbortSignal; only?: string } = {}): Promise<string[]> {
    const wanted = (p: ProviderConfig) => !opts.only || p.name === opts.only;
    const loggedOut = this.anyLoggedIn() ? undefined : this.activeConfig;
    if (loggedOut) return wanted(loggedOut) ? this.refreshLoggedOut(loggedOut, opts) : [];
    const errors: string[] = [];
    const targets = this.config.providers.filter((p) => wanted(p) && this.isLoggedIn(p));
    await Promise.all(
      targets.map(async (p) => {
        try {
          this.modelsByProvider.set(p.name, await this.discover(p, opts));
        } catch (err) {
          errors.push(`${p.name}: ${(err as Error).message}`);
          if (!this.modelsByProvider.has(p.name)) this.modelsByProvider.set(p.name, this.overrideModels(p.name));
        }
      }),
    );
    return errors;
  }

  private async refreshLoggedOut(p: ProviderConfig, opts: { force?: boolean; signal?: AbortSignal }): Promise<string[]> {
    try {
      this.listedLoggedOut = { provider: p.name, models: await this.discover(p, opts) };
      return [];
    } catch (err) {
      return [`${p.name}: ${(err as Error).message}`];
    }
  }

  /** The provider's discovered models with its overrides merged in; throws what discovery throws. */
  private async discover(p: ProviderConfig, opts: { force?: boolean; signal?: AbortSignal }): Promise<ModelInfo[]> {
    const resolved = this.resolve(p.name)!;
    // The cache is per URL, not per key: a list made without the key must not stand in for the keyed one.
    const force = opts.force || (!!resolved.apiKey && this.listedWithoutKey.has(p.name));
    const found = await discoverModels(resolved, {
      signal: opts.signal,
      cacheFile: `${this.config.configDir}/models-cache.json`,
      force,
      fallback: builtInModels(resolved, { isDefaultProvider: p.name === DEFAULT_PROVIDER_NAME }),
    });
    if (resolved.apiKey) this.listedWithoutKey.delete(p.name);
    else this.listedWithoutKey.add(p.name);
    return mergeOverrides(
      found.map((m) => ({ ...m, provider: p.name })),
      this.overrideModels(p.name),
    );
  }

  private loggedOutModels(name: string): ModelInfo[] | undefined {
    if (this.listedLoggedOut?.provider !== name || this.anyLoggedIn()) return undefined;
    return this.listedLoggedOut.models;
  }

  private overrideModels(name: string): ModelInfo[] {
    const p = this.find(name);
    return (p?.modelsOverride ?? []).map((o) => ({
      id: o.id,
      name: o.id,
      provider: name,
      context_window: o.context_window ?? p?.contextWindow,
      max_tokens: o.max_tokens,
      reasoning: o.reasoning,
      thinking_levels: o.thinking_levels,
    }));
  }

  private pickActive(preferred: string | undefined): string {
    if (preferred && this.find(preferred)) return preferred;
    const usable = this.config.providers.find((p) => this.isLoggedIn(p));
    return usable?.name ?? this.config.providers[0]?.name ?? 'default';
  }
}

function mergeOverrides(found: ModelInfo[], overrides: ModelInfo[]): ModelInfo[] {
  const byId = new Map(found.map((m) => [m.id, m]));
  for (const o of overrides) byId.set(o.id, { ...byId.get(o.id), ...stripUndefined(o) } as ModelInfo);
  return [...byId.values()];
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
