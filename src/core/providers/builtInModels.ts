import type { ModelInfoLite, ResolvedProvider } from './types';

/**
 * The model lists a provider shows when neither its server nor the model cache has one (no network, a server
 * down, nothing cached yet), as upstream's core does. Facts copied from upstream's
 * core/src/providers/discovery.rs (`fallback_models`, `anthropic_fallback_models`, `deepseek_fallback_models`,
 * `kimi_fallback_models`, `opencode_go_fallback_models` and the capability tables they read).
 *
 * A row is [id, display name, context window, max output tokens, thinking levels, vision]; a model reasons exactly
 * when it has thinking levels, in every list upstream has.
 */
type Row = readonly [
  id: string,
  name: string,
  contextWindow: number,
  maxTokens: number,
  thinkingLevels: readonly string[],
  vision: boolean,
];

interface BuiltInList {
  vendor: string;
  serves(provider: ResolvedProvider, host: string): boolean;
  rows: readonly Row[];
}

const STANDARD_LEVELS = ['low', 'medium', 'high'] as const;
const GLM_LEVELS = ['high'] as const;
const DEEPSEEK_LEVELS = ['high', 'max'] as const;
const NONE = [] as const;

const UMANS_ROWS: readonly Row[] = [
  ['umans-coder', 'Umans Coder', 262_144, 32_768, STANDARD_LEVELS, false],
  ['umans-kimi-k2.5', 'Umans Kimi K2.5', 262_144, 32_768, STANDARD_LEVELS, false],
  ['umans-kimi-k2.6', 'Umans Kimi K2.6', 262_144, 32_768, STANDARD_LEVELS, false],
  ['umans-glm-5.1', 'Umans GLM 5.1', 202_752, 131_072, GLM_LEVELS, false],
  ['umans-glm-5.2', 'Umans GLM 5.2', 413_696, 131_072, GLM_LEVELS, false],
  ['umans-minimax-m2.5', 'Umans MiniMax M2.5', 204_800, 8_192, STANDARD_LEVELS, false],
];

const BUILT_IN_LISTS: readonly BuiltInList[] = [
  {
    vendor: 'opencode-go (OpenAI endpoint)',
    serves: (p, host) => isOpenCodeGo(p, host) && p.kind === 'openai',
    rows: [
      ['glm-5.2', 'GLM-5.2', 1_000_000, 131_072, NONE, false],
      ['glm-5.1', 'GLM-5.1', 200_000, 131_072, NONE, false],
      ['kimi-k2.7-code', 'Kimi K2.7 Code', 262_144, 262_144, NONE, true],
      ['kimi-k2.6', 'Kimi K2.6', 262_144, 262_144, NONE, true],
      ['deepseek-v4-pro', 'DeepSeek V4 Pro', 1_000_000, 384_000, NONE, false],
      ['deepseek-v4-flash', 'DeepSeek V4 Flash', 1_000_000, 384_000, NONE, false],
      ['mimo-v2.5', 'MiMo-V2.5', 1_048_576, 131_072, NONE, true],
      ['mimo-v2.5-pro', 'MiMo-V2.5-Pro', 1_048_576, 131_072, NONE, false],
    ],
  },
  {
    vendor: 'opencode-go (Anthropic endpoint)',
    serves: (p, host) => isOpenCodeGo(p, host) && p.kind === 'anthropic',
    rows: [
      ['minimax-m3', 'MiniMax M3', 512_000, 128_000, STANDARD_LEVELS, true],
      ['minimax-m2.7', 'MiniMax M2.7', 204_800, 131_072, STANDARD_LEVELS, false],
      ['minimax-m2.5', 'MiniMax M2.5', 204_800, 131_072, STANDARD_LEVELS, false],
      ['qwen3.7-max', 'Qwen3.7 Max', 1_000_000, 65_536, STANDARD_LEVELS, false],
      ['qwen3.7-plus', 'Qwen3.7 Plus', 1_000_000, 64_000, STANDARD_LEVELS, true],
      ['qwen3.6-plus', 'Qwen3.6 Plus', 1_000_000, 65_536, STANDARD_LEVELS, true],
    ],
  },
  {
    vendor: 'anthropic',
    serves: (p, host) => p.kind === 'anthropic' && host === 'api.anthropic.com',
    rows: [
      ['claude-opus-4-1', 'claude-opus-4-1', 200_000, 32_000, STANDARD_LEVELS, true],
      ['claude-sonnet-4-5', 'claude-sonnet-4-5', 200_000, 16_000, STANDARD_LEVELS, true],
      ['claude-sonnet-4-0', 'claude-sonnet-4-0', 200_000, 16_000, STANDARD_LEVELS, true],
      ['claude-haiku-4-5', 'claude-haiku-4-5', 200_000, 8_192, NONE, true],
      ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-20250219', 200_000, 8_192, STANDARD_LEVELS, true],
      ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-20241022', 200_000, 8_192, NONE, true],
      ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-20241022', 200_000, 8_192, NONE, true],
    ],
  },
  {
    vendor: 'deepseek',
    serves: (p, host) => p.kind === 'openai' && host === 'api.deepseek.com',
    rows: [
      ['deepseek-v4-flash', 'DeepSeek V4 Flash', 1_000_000, 384_000, DEEPSEEK_LEVELS, false],
      ['deepseek-v4-pro', 'DeepSeek V4 Pro', 1_000_000, 384_000, DEEPSEEK_LEVELS, false],
    ],
  },
  {
    vendor: 'kimi',
    serves: (p, host) => p.kind === 'openai' && host === 'api.kimi.com',
    rows: [['kimi-for-coding', 'Kimi for Coding', 262_144, 32_000, STANDARD_LEVELS, true]],
  },
  {
    vendor: 'umans',
    serves: (p, host) => p.kind === 'openai' && (host === 'umans.ai' || host.endsWith('.umans.ai')),
    rows: UMANS_ROWS,
  },
];

/**
 * The built-in list for `provider`: its vendor's (recognised by base URL and kind), else Umans' for the default
 * provider (upstream's default, whatever URL it was given), else none — a custom endpoint is not shown another
 * vendor's models.
 */
export function builtInModels(provider: ResolvedProvider, opts: { isDefaultProvider: boolean }): ModelInfoLite[] {
  const host = hostOf(provider.baseUrl);
  const list = BUILT_IN_LISTS.find((l) => l.serves(provider, host));
  const rows = list?.rows ?? (opts.isDefaultProvider && provider.kind === 'openai' ? UMANS_ROWS : []);
  return rows.map((row) => modelOf(row, provider.name));
}

function modelOf([id, name, contextWindow, maxTokens, thinkingLevels, vision]: Row, providerName: string): ModelInfoLite {
  return {
    id,
    name,
    provider: providerName,
    context_window: contextWindow,
    max_tokens: maxTokens,
    reasoning: thinkingLevels.length > 0,
    thinking_levels: [...thinkingLevels],
    vision,
  };
}

function isOpenCodeGo(provider: ResolvedProvider, host: string): boolean {
  return host === 'opencode.ai' && provider.baseUrl.toLowerCase().includes('/zen/go/');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
