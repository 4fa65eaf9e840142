/**
 * `<workspace>/.catalyst-code/vision.json` (research A §10): `{enabled, vision_models, vision_model}` as upstream, plus
 * our own `mode`. A missing file or key gives the defaults, malformed JSON gives the defaults, an empty `vision_model`
 * is null, and the file is written pretty-printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../platform/atomicWrite';

/**
 * What happens on an image turn whose model cannot see: `switch` (upstream's) gives the whole turn to the vision model;
 * `describe` (ours) asks the vision model for a description once and the chosen model keeps the turn, without the image.
 */
export type VisionMode = 'switch' | 'describe';

export interface VisionConfig {
  enabled: boolean;
  /** Models the user says can see, besides those their endpoint flags. */
  vision_models: string[];
  /** The preferred hand-off target; null: the cheapest same-provider vision model. */
  vision_model: string | null;
  mode: VisionMode;
}

export const DEFAULT_VISION_CONFIG: Readonly<VisionConfig> = Object.freeze({
  enabled: true,
  vision_models: [],
  vision_model: null,
  mode: 'switch',
});

export function visionConfigPath(workspace: string): string {
  return join(workspace, '.catalyst-code', 'vision.json');
}

export function readVisionConfig(workspace: string): VisionConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(visionConfigPath(workspace), 'utf8'));
  } catch {
    return { ...DEFAULT_VISION_CONFIG, vision_models: [] };
  }
  return normalizeVisionConfig(raw);
}

/** A parsed vision.json (or a set_vision_config's fields) as a config: wrong-typed keys take their defaults. */
export function normalizeVisionConfig(raw: unknown): VisionConfig {
  const r = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return {
    enabled: typeof r.enabled === 'boolean' ? r.enabled : true,
    vision_models: Array.isArray(r.vision_models) ? r.vision_models.filter((m): m is string => typeof m === 'string' && m !== '') : [],
    vision_model: typeof r.vision_model === 'string' && r.vision_model.trim() ? r.vision_model.trim() : null,
    mode: r.mode === 'describe' ? 'describe' : 'switch',
  };
}

/** Writes the config pretty-printed; throws when the file cannot be written. */
export function writeVisionConfig(workspace: string, config: VisionConfig): void {
  writeFileAtomicSync(visionConfigPath(workspace), `${JSON.stringify(config, null, 2)}\n`, { newFileMode: 0o644 });
}
