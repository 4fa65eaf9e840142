import { asArray, asNumber, asRecord, asString, type JsonRecord } from './jsonValue';
import type { ModelInfoLite } from './types';

/**
 * A `/models` listing → ModelInfoLite. Accepts OpenAI `{data:[{id,…}]}` (with the OpenRouter/vLLM/xAI extras
 * when present), Anthropic `{data:[{id,display_name}]}`, a bare array and `{models:[…]}`. Duplicate ids keep
 * the first entry.
 */
export function parseModelList(payload: unknown, providerName: string): ModelInfoLite[] {
  const entries = modelEntries(payload);
  const seen = new Set<string>();
  const models: ModelInfoLite[] = [];
  for (const entry of entries) {
    const model = toModelInfo(entry, providerName);
    if (!model || seen.has(model.id)) continue;
    seen.add(model.id);
    models.push(model);
  }
  return models;
}

function modelEntries(payload: unknown): unknown[] {
  const record = asRecord(payload);
  return asArray(payload) ?? asArray(record?.data) ?? asArray(record?.models) ?? [];
}

function toModelInfo(entry: unknown, providerName: string): ModelInfoLite | undefined {
  if (typeof entry === 'string') return entry ? { id: entry, name: entry, provider: providerName } : undefined;
  const record = asRecord(entry);
  const id = asString(record?.id) || asString(record?.name);
  if (!record || !id) return undefined;
  const model: ModelInfoLite = {
    id,
    name: asString(record.display_name) || asString(record.name) || id,
    provider: providerName,
  };
  const contextWindow = firstPositive(record, ['context_window', 'context_length', 'max_context_window', 'max_model_len']);
  const maxTokens =
    firstPositive(record, ['max_tokens', 'max_output_tokens', 'max_completion_tokens']) ??
    firstPositive(asRecord(record.top_provider), ['max_completion_tokens']);
  const reasoning = reasoningSupport(record);
  if (contextWindow !== undefined) model.context_window = contextWindow;
  if (maxTokens !== undefined) model.max_tokens = maxTokens;
  if (reasoning !== undefined) model.reasoning = reasoning;
  return model;
}

function firstPositive(record: JsonRecord | undefined, keys: readonly string[]): number | undefined {
  if (!record) return undefined;
  for (const key of keys) {
    const value = asNumber(record[key]);
    if (value !== undefined && value > 0) return Math.floor(value);
  }
  return undefined;
}

/** OpenRouter lists `supported_parameters`; some servers have a plain `reasoning` flag. */
function reasoningSupport(record: JsonRecord): boolean | undefined {
  if (typeof record.reasoning === 'boolean') return record.reasoning;
  const parameters = asArray(record.supported_parameters);
  if (!parameters) return undefined;
  return parameters.includes('reasoning') || parameters.includes('include_reasoning') || parameters.includes('reasoning_effort');
}
