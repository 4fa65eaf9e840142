// Which models.dev provider's prices apply to an endpoint. Only endpoints that bill per token as models.dev lists them:
// a subscription endpoint of the same vendor (OpenCode Go, Z.ai's coding plan) is not priced.

/** models.dev provider ids the snapshot carries: scripts/update-prices.mjs reads this list. */
export const PRICED_PROVIDER_IDS: readonly string[] = [
  'openai',
  'anthropic',
  'openrouter',
  'deepseek',
  'opencode',
  'groq',
  'mistral',
  'xai',
  'togetherai',
  'fireworks-ai',
  'deepinfra',
  'cerebras',
  'moonshotai',
  'zai',
  'zhipuai',
  'google',
];

const BY_HOST: Readonly<Record<string, string>> = {
  'api.openai.com': 'openai',
  'api.anthropic.com': 'anthropic',
  'openrouter.ai': 'openrouter',
  'api.deepseek.com': 'deepseek',
  'opencode.ai': 'opencode',
  'api.groq.com': 'groq',
  'api.mistral.ai': 'mistral',
  'api.x.ai': 'xai',
  'api.together.xyz': 'togetherai',
  'api.fireworks.ai': 'fireworks-ai',
  'api.deepinfra.com': 'deepinfra',
  'api.cerebras.ai': 'cerebras',
  'api.moonshot.ai': 'moonshotai',
  'api.z.ai': 'zai',
  'open.bigmodel.cn': 'zhipuai',
  'generativelanguage.googleapis.com': 'google',
};

/** Paths on a priced host that are a flat-rate plan, not the per-token API. */
const SUBSCRIPTION_PATHS: readonly RegExp[] = [/^\/zen\/go(\/|$)/, /\/coding\//];

/** The models.dev provider whose prices an endpoint bills at, or undefined (a custom or local endpoint: no price). */
export function pricedProviderFor(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const id = BY_HOST[url.hostname.toLowerCase()];
  if (!id || url.protocol !== 'https:') return undefined;
  return SUBSCRIPTION_PATHS.some((p) => p.test(url.pathname)) ? undefined : id;
}
