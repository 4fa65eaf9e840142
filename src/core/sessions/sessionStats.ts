import fs from 'node:fs';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { parseJsonObjectLine } from './jsonLine';

/** One model's share of a session's requests, as `stats.by_model` reports it; `estimated_usd` null: a price was unknown. */
export interface ModelFigures {
  provider: string;
  model: string;
  requests: number;
  tokens_in: number;
  tokens_out: number;
  cached_tokens: number;
  estimated_usd: number | null;
}

/** A session's running figures, kept in `<session>.stats` so that a reload or a restart goes on from them. */
export interface SessionFigures {
  tokens_in: number;
  tokens_out: number;
  cached_tokens: number;
  last_prompt_tokens: number;
  turns: number;
  compactions: number;
  tool_calls: number;
  bash_calls: number;
  edit_calls: number;
  by_model: ModelFigures[];
}

const COUNTERS = [
  'tokens_in',
  'tokens_out',
  'cached_tokens',
  'last_prompt_tokens',
  'turns',
  'compactions',
  'tool_calls',
  'bash_calls',
  'edit_calls',
] as const;

export function sessionStatsPath(sessionPath: string): string {
  return sessionPath + '.stats';
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

function modelFigures(v: unknown): ModelFigures | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  if (typeof r.model !== 'string' || typeof r.provider !== 'string') return undefined;
  const usd = r.estimated_usd;
  return {
    provider: r.provider,
    model: r.model,
    requests: count(r.requests),
    tokens_in: count(r.tokens_in),
    tokens_out: count(r.tokens_out),
    cached_tokens: count(r.cached_tokens),
    // Anything but a price is an unknown price: a made-up zero would understate the session's cost.
    estimated_usd: typeof usd === 'number' && Number.isFinite(usd) && usd >= 0 ? usd : null,
  };
}

function readObject(sessionPath: string): Record<string, unknown> | undefined {
  try {
    return parseJsonObjectLine(fs.readFileSync(sessionStatsPath(sessionPath), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The figures of `<session>.stats`; undefined when there is none, or it is not ours (no `by_model` list). */
export function readSessionStats(sessionPath: string): SessionFigures | undefined {
  const raw = readObject(sessionPath);
  if (!raw || !Array.isArray(raw.by_model)) return undefined;
  const figures = { by_model: raw.by_model.map(modelFigures).filter((m) => m !== undefined) } as SessionFigures;
  for (const key of COUNTERS) figures[key] = count(raw[key]);
  return figures;
}

/** Writes the figures atomically; keys other clients wrote into the sidecar are kept. */
export function writeSessionStats(sessionPath: string, figures: SessionFigures): void {
  const merged = { ...(readObject(sessionPath) ?? {}), ...figures };
  writeFileAtomicSync(sessionStatsPath(sessionPath), JSON.stringify(merged) + '\n');
}
