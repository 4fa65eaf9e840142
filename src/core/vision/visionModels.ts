/**
 * Which models can see, how cheap each is thought to be, and which one an image turn is handed to (research A §10:
 * `vision_cost_rank`, `recommend_vision_model`).
 */
import type { ModelInfo } from '../../protocol';
import type { VisionConfig } from './visionConfig';

/** One row of `vision_config.models`. */
export interface VisionModelRow {
  id: string;
  /** The endpoint's flag, or listed in `vision_models`. */
  vision: boolean;
  provider: string;
  cost_rank: number;
}

/** upstream's heuristic on the model id; lower is cheaper. Checked from the dearest class down, as upstream does. */
export function visionCostRank(id: string): number {
  const m = id.toLowerCase();
  if (/opus|ultra|max$|(^|[^a-z0-9])o[13]($|[^a-z0-9])/.test(m)) return 80;
  // `mini` as a word: a bare substring test would make every gemini model the cheapest.
  if (/nano|haiku|(^|[^a-z])mini|flash-lite/.test(m)) return 10;
  if (/flash|-lite|small|fast/.test(m)) return 20;
  if (/sonnet|codex|gpt-4o/.test(m)) return 40;
  if (/-pro|pro-|pro$|medium/.test(m)) return 50;
  return 60;
}

export function visionModelRows(models: readonly ModelInfo[], config: VisionConfig, activeProvider: string): VisionModelRow[] {
  return models.map((m) => ({
    id: m.id,
    vision: m.vision === true || config.vision_models.includes(m.id),
    provider: m.provider ?? activeProvider,
    cost_rank: visionCostRank(m.id),
  }));
}

/**
 * The hand-off target: the configured `vision_model` when it is a known vision model (of any provider), else the
 * cheapest vision model of `provider` other than `current`, by cost rank then id.
 */
export function recommendVisionModel(
  rows: readonly VisionModelRow[],
  config: VisionConfig,
  current: string,
  provider: string,
): VisionModelRow | undefined {
  const pinned = config.vision_model ? rows.find((r) => r.id === config.vision_model && r.vision) : undefined;
  if (pinned) return pinned;
  return rows
    .filter((r) => r.vision && r.provider === provider && r.id !== current)
    .sort((a, b) => a.cost_rank - b.cost_rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
}
