import { asArray, asRecord, asString, type JsonRecord } from './jsonValue';
import type { ModelInfoLite } from './types';

// What upstream assumes for a model whose entry leaves a capability out (discovery.rs parse_models_response).
const DEFAULT_CONTEXT_WINDOW = 200_000;
const DEFAULT_MAX_TOKENS = 65_000;

/**
 * Umans' `GET /models/info` → ModelInfoLite, read as upstream reads it: a map
 * `{"<id>": {display_name, capabilities: {context_window, recommended_max_tokens, supports_vision,
 * reasoning: {supported, levels}}}}`. Only `supports_vision: true` counts as vision ("via-handoff" does not);
 * reasoning is assumed unless `reasoning.supported` is false; the levels come from `reasoning.levels`, else the
 * flat `thinking_levels` / `reasoning_levels` / `reasoning_efforts`. Anything but such a map lists nothing.
 */
export function parseModelsInfo(payload: unknown, providerName: string): ModelInfoLite[] {
  const map = asRecord(payload);
  if (!map) return [];
  return Object.entries(map).flatMap(([id, entry]) => {
    const info = asRecord(entry);
    return id && info ? [modelFromInfo(id, info, providerName)] : [];
  });
}

function modelFromInfo(id: string, info: JsonRecord, providerName: string): ModelInfoLite {
  const capabilities = asRecord(info.capabilities);
  const reasoning = asRecord(capabilities?.reasoning);
  return {
    id,
    name: asString(info.display_name) || id,
    provider: providerName,
    context_window: count(capabilities?.context_window) ?? DEFAULT_CONTEXT_WINDOW,
    max_tokens: count(capabilities?.recommended_max_tokens) ?? DEFAULT_MAX_TOKENS,
    reasoning: reasoning?.supported !== false,
    thinking_levels: thinkingLevels(reasoning, capabilities),
    vision: capabilities?.supports_vision === true,
  };
}

function thinkingLevels(reasoning: JsonRecord | undefined, capabilities: JsonRecord | undefined): string[] {
  const listed = reasoning?.levels ?? capabilities?.thinking_levels ?? capabilities?.reasoning_levels ?? capabilities?.reasoning_efforts;
  return (asArray(listed) ?? []).filter((level): level is string => typeof level === 'string' && level !== '');
}

/** A token count as upstream accepts one: a non-negative integer. */
function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
