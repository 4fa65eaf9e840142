/**
 * The web_search keys of one core process. A key given with `set_search_key` lives in this process's memory only
 * (runtime, like `set_key`): it wins over `search_keys` of the config files, which win over EXA_API_KEY / TAVILY_API_KEY
 * (upstream's order, research §9.2). Every key known here is a secret the core scrubs from its output.
 */
import type { SearchProvider } from '../../protocol';

export const SEARCH_PROVIDERS: readonly SearchProvider[] = ['exa', 'tavily'];

const ENV_VARS: Readonly<Record<SearchProvider, string>> = { exa: 'EXA_API_KEY', tavily: 'TAVILY_API_KEY' };

export function isSearchProvider(value: string): value is SearchProvider {
  return (SEARCH_PROVIDERS as readonly string[]).includes(value);
}

export function searchKeyEnvVar(provider: SearchProvider): string {
  return ENV_VARS[provider];
}

export class SearchKeys {
  private readonly runtime = new Map<SearchProvider, string>();

  constructor(
    /** `search_keys` of the config files (CoreConfig.searchKeys), shared so a persisted change is seen at once. */
    private readonly configured: Record<string, string>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** An empty key removes this process's key of that provider (a configured or environment key may remain). */
  setRuntime(provider: SearchProvider, key: string): void {
    if (key) this.runtime.set(provider, key);
    else this.runtime.delete(provider);
  }

  /** The config files' key, changed along with config.json when a client asks for upstream's persistence. */
  setConfigured(provider: SearchProvider, key: string): void {
    if (key) this.configured[provider] = key;
    else delete this.configured[provider];
  }

  get(provider: SearchProvider): string | undefined {
    const configured = Object.hasOwn(this.configured, provider) ? this.configured[provider]?.trim() : undefined;
    return this.runtime.get(provider) || configured || this.env[ENV_VARS[provider]]?.trim() || undefined;
  }

  has(provider: SearchProvider): boolean {
    return this.get(provider) !== undefined;
  }

  any(): boolean {
    return SEARCH_PROVIDERS.some((p) => this.has(p));
  }

  /** Every key of every source, for the redaction set. */
  secrets(): string[] {
    const found = [...this.runtime.values()];
    for (const p of SEARCH_PROVIDERS) {
      const configured = Object.hasOwn(this.configured, p) ? this.configured[p] : undefined;
      if (typeof configured === 'string' && configured.trim()) found.push(configured, configured.trim());
      const fromEnv = this.env[ENV_VARS[p]];
      if (fromEnv?.trim()) found.push(fromEnv, fromEnv.trim());
    }
    return [...new Set(found)];
  }
}
