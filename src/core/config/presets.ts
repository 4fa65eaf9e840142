// First-party provider presets (research §3.3), in picker order. `login{preset, api_key}`
// turns one into provider configs with providerFromPreset().

export interface ProviderPresetDef {
  id: string;
  label: string;
  kind: 'openai' | 'anthropic';
  baseUrl: string;
  /** Env var conventionally holding this vendor's key. */
  envVar: string;
  /** Alternative env vars, checked in order when envVar is unset. */
  altEnvs: string[];
  description: string;
}

/**
 * OpenCode Go serves some models over the OpenAI chat endpoint and others over the
 * Anthropic Messages endpoint, under one key and one base URL. Its preset therefore
 * expands into two providers: `opencode-go` (kind openai, the primary one that becomes
 * active) and `opencode-go-anthropic` (kind anthropic), as upstream does.
 */
export const OPENCODE_GO_PRESET_ID = 'opencode-go';
export const OPENCODE_GO_ANTHROPIC_PROVIDER = 'opencode-go-anthropic';

export const PROVIDER_PRESETS: readonly ProviderPresetDef[] = Object.freeze([
  {
    id: 'umans',
    label: 'Umans (GLM-5.2)',
    kind: 'openai',
    baseUrl: 'https://api.code.umans.ai/v1',
    envVar: 'UMANS_API_KEY',
    altEnvs: [],
    description: 'Umans — GLM-5.2, the default provider. Paste your API key via /login (https://app.umans.ai/billing → API Keys).',
  },
  {
    id: OPENCODE_GO_PRESET_ID,
    label: 'OpenCode Go',
    kind: 'openai',
    baseUrl: 'https://opencode.ai/zen/go/v1',
    envVar: 'OPENCODE_GO_API_KEY',
    altEnvs: [],
    description:
      'OpenCode Go — low-cost subscription for popular open coding models (GLM, Kimi, DeepSeek, MiMo, MiniMax, Qwen). One API key; models route to the OpenAI-compatible or Anthropic endpoint automatically.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    envVar: 'OPENROUTER_API_KEY',
    altEnvs: [],
    description: 'OpenRouter multi-model gateway. Uses OPENROUTER_API_KEY (https://openrouter.ai/settings/keys).',
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    kind: 'openai',
    // DeepSeek's OpenAI-compatible base URL has no /v1.
    baseUrl: 'https://api.deepseek.com',
    envVar: 'DEEPSEEK_API_KEY',
    altEnvs: [],
    description:
      'DeepSeek API — V4 Pro and V4 Flash with live model discovery. Uses DEEPSEEK_API_KEY (https://platform.deepseek.com/api_keys).',
  },
] satisfies ProviderPresetDef[]);

export function findPreset(id: string): ProviderPresetDef | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}
