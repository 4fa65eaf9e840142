import { bool, num, records, str, strings } from '../state/eventFields';

/** One model as the vision settings show it (`vision_config.models`). */
export interface VisionModelView {
  id: string;
  vision: boolean;
  provider?: string;
  costRank?: number;
}

/** `vision_config`, read defensively (upstream's core sends no `mode`: its hand-off always switches). */
export interface VisionSettings {
  enabled: boolean;
  mode: 'switch' | 'describe';
  visionModel: string | null;
  visionModels: string[];
  models: VisionModelView[];
}

export function visionSettingsOf(e: Record<string, unknown>): VisionSettings {
  return {
    enabled: bool(e.enabled) ?? true,
    mode: e.mode === 'describe' ? 'describe' : 'switch',
    visionModel: str(e.vision_model) || null,
    visionModels: strings(e.vision_models),
    models: records(e.models).flatMap((m) => {
      const id = str(m.id);
      if (!id) return [];
      const view: VisionModelView = { id, vision: m.vision === true };
      const provider = str(m.provider);
      const costRank = num(m.cost_rank);
      if (provider) view.provider = provider;
      if (costRank !== undefined) view.costRank = costRank;
      return [view];
    }),
  };
}

/** The `set_vision_config` that saves these settings (the command replaces the whole config). */
export function setVisionConfigCommand(s: Omit<VisionSettings, 'models'>) {
  return {
    type: 'set_vision_config' as const,
    enabled: s.enabled,
    vision_models: [...s.visionModels],
    vision_model: s.visionModel,
    mode: s.mode,
  };
}
