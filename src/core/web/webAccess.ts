/**
 * What the web tools of one core need: whether they are on, the egress policy, the limits, the search keys and the
 * search backends' endpoints and state. Read from the config once (CoreRuntime), shared by fetch and web_search.
 */
import type { CoreConfig } from '../config/coreConfig';
import type { EgressPolicy } from './hostPolicy';
import { SearchBackendState } from './searchBackendState';
import { SearchKeys } from './searchKeys';
import type { SearchProvider } from '../../protocol';

export const WEB_TOOLS: readonly string[] = ['fetch', 'web_search'];

const DEFAULT_ENDPOINTS: Readonly<Record<SearchProvider, string>> = {
  exa: 'https://api.exa.ai/search',
  tavily: 'https://api.tavily.com/search',
};

/** Environment overrides of the search APIs' URLs (for a proxy, or a local stand-in in tests). */
const ENDPOINT_VARS: Readonly<Record<SearchProvider, string>> = { exa: 'CATALYST_CODE_EXA_URL', tavily: 'CATALYST_CODE_TAVILY_URL' };

export class WebAccess {
  readonly enabled: boolean;
  readonly policy: EgressPolicy;
  readonly timeoutMs: number;
  /** fetch's body cap (upstream's max(fetch_max_bytes, 1024)). */
  readonly maxBytes: number;
  readonly keys: SearchKeys;
  readonly backends = new SearchBackendState();
  private readonly endpoints: Record<SearchProvider, string>;

  constructor(config: CoreConfig, env: NodeJS.ProcessEnv) {
    this.enabled = config.webTools;
    this.policy = { allowlist: config.fetchAllowlist, noNetwork: config.noNetwork };
    this.timeoutMs = Math.max(1, config.fetchTimeoutSecs) * 1000;
    this.maxBytes = Math.max(config.fetchMaxBytes, 1024);
    this.keys = new SearchKeys(config.searchKeys, env);
    this.endpoints = {
      exa: env[ENDPOINT_VARS.exa]?.trim() || DEFAULT_ENDPOINTS.exa,
      tavily: env[ENDPOINT_VARS.tavily]?.trim() || DEFAULT_ENDPOINTS.tavily,
    };
  }

  endpoint(provider: SearchProvider): string {
    return this.endpoints[provider];
  }

  /** The web tools the model is not offered now: both while they are off, web_search while no search key is set. */
  withheldTools(): ReadonlySet<string> {
    if (!this.enabled) return new Set(WEB_TOOLS);
    return this.keys.any() ? NONE : new Set(['web_search']);
  }

  /** Why a web tool may not run at all now, or undefined. */
  refusal(tool: string): string | undefined {
    if (this.enabled || !WEB_TOOLS.includes(tool)) return undefined;
    return `${tool}: web tools are turned off (web_tools: false, CATALYST_CODE_WEB_TOOLS=0 or the catalystCode.web.enabled setting)`;
  }
}

const NONE: ReadonlySet<string> = new Set();
