/**
 * `get_vision_config` / `set_vision_config` (research A §10): the vision.json settings and every model with whether it
 * can see and its cost rank, in upstream's `vision_config` payload (plus our `mode`).
 */
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { normalizeVisionConfig, readVisionConfig, writeVisionConfig, type VisionConfig } from '../vision/visionConfig';
import { visionModelRows } from '../vision/visionModels';

export function handleGetVisionConfig(rt: CoreRuntime): void {
  emitVisionConfig(rt, readVisionConfig(rt.workspace));
}

/**
 * Replaces the whole config, as upstream (an omitted `vision_models` clears the list, an omitted `enabled` is true);
 * only our `mode`, which upstream's clients never send, keeps its value when omitted.
 */
export function handleSetVisionConfig(rt: CoreRuntime, cmd: CommandOf<'set_vision_config'>): void {
  const bad = invalidField(cmd);
  if (bad) {
    rt.emit({ type: 'error', code: 'invalid_command', message: `set_vision_config: ${bad}` });
    return;
  }
  const mode = cmd.mode ?? readVisionConfig(rt.workspace).mode;
  const config = normalizeVisionConfig({
    enabled: cmd.enabled ?? true,
    vision_models: cmd.vision_models ?? [],
    vision_model: cmd.vision_model,
    mode,
  });
  try {
    writeVisionConfig(rt.workspace, config);
  } catch (err) {
    rt.emit({ type: 'error', code: 'io_error', message: `vision settings not saved: ${(err as Error).message}` });
    return;
  }
  emitVisionConfig(rt, config);
}

function invalidField(cmd: CommandOf<'set_vision_config'>): string | undefined {
  if (cmd.enabled !== undefined && typeof cmd.enabled !== 'boolean') return 'enabled must be a boolean';
  if (cmd.vision_models !== undefined && !(Array.isArray(cmd.vision_models) && cmd.vision_models.every((m) => typeof m === 'string')))
    return 'vision_models must be a list of model ids';
  if (cmd.vision_model !== undefined && cmd.vision_model !== null && typeof cmd.vision_model !== 'string')
    return 'vision_model must be a model id or null';
  if (cmd.mode !== undefined && cmd.mode !== 'switch' && cmd.mode !== 'describe') return "mode must be 'switch' or 'describe'";
  return undefined;
}

function emitVisionConfig(rt: CoreRuntime, config: VisionConfig): void {
  rt.emit({
    type: 'vision_config',
    enabled: config.enabled,
    vision_models: config.vision_models,
    vision_model: config.vision_model,
    mode: config.mode,
    models: visionModelRows(rt.providers.models(), config, rt.providers.active),
  });
}
