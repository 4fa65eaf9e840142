import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setVisionConfigCommand, visionSettingsOf } from './visionSettings';

test("vision_config from our core and from upstream's (no mode, untyped rows) reads the same way", () => {
  const ours = visionSettingsOf({
    type: 'vision_config',
    enabled: false,
    mode: 'describe',
    vision_model: 'see-mini',
    vision_models: ['coder', 7],
    models: [{ id: 'see-mini', vision: true, provider: 'a', cost_rank: 10 }, { id: 'coder', vision: 'yes' }, { vision: true }],
  });
  assert.deepEqual(ours, {
    enabled: false,
    mode: 'describe',
    visionModel: 'see-mini',
    visionModels: ['coder'],
    models: [
      { id: 'see-mini', vision: true, provider: 'a', costRank: 10 },
      { id: 'coder', vision: false },
    ],
  });
  const upstream = visionSettingsOf({ type: 'vision_config', enabled: true, vision_model: null, vision_models: [], models: [] });
  assert.deepEqual([upstream.mode, upstream.visionModel], ['switch', null]);
});

test('the save command carries the whole config (set_vision_config replaces it)', () => {
  assert.deepEqual(setVisionConfigCommand({ enabled: true, mode: 'switch', visionModel: null, visionModels: ['x'] }), {
    type: 'set_vision_config',
    enabled: true,
    vision_models: ['x'],
    vision_model: null,
    mode: 'switch',
  });
});
