import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeVisionConfig, readVisionConfig, visionConfigPath } from './visionConfig';

test('vision.json: missing file or keys give the defaults, malformed JSON too; an empty vision_model is null', () => {
  const ws = mkdtempSync(join(tmpdir(), 'vision-cfg-'));
  const defaults = { enabled: true, vision_models: [], vision_model: null, mode: 'switch' };
  assert.deepEqual(readVisionConfig(ws), defaults);
  mkdirSync(join(ws, '.catalyst-code'));
  writeFileSync(visionConfigPath(ws), '{ nope');
  assert.deepEqual(readVisionConfig(ws), defaults);
  writeFileSync(visionConfigPath(ws), JSON.stringify({ enabled: false, vision_model: '  ' }));
  assert.deepEqual(readVisionConfig(ws), { ...defaults, enabled: false });
  assert.deepEqual(normalizeVisionConfig({ vision_models: ['a', 3, ''], vision_model: 'b', mode: 'describe' }), {
    enabled: true,
    vision_models: ['a'],
    vision_model: 'b',
    mode: 'describe',
  });
  assert.equal(normalizeVisionConfig({ mode: 'other' }).mode, 'switch');
});
