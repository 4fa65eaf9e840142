import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_VISION_CONFIG } from './visionConfig';
import { recommendVisionModel, visionCostRank, visionModelRows } from './visionModels';

test("cost_rank follows upstream's heuristic on the id, the dearest class first", () => {
  const ranks = Object.fromEntries(
    [
      'claude-opus-4',
      'gemini-ultra',
      'kimi-max',
      'o3',
      'openai/o1-preview',
      'gpt-5-nano',
      'claude-haiku-4.5',
      'gpt-4o-mini',
      'gemini-2.5-flash-lite',
      'gemini-2.5-flash',
      'mistral-small',
      'grok-fast',
      'claude-sonnet-4.5',
      'gpt-5-codex',
      'gpt-4o',
      'gemini-2.5-pro',
      'mistral-medium',
      'glm-5',
    ].map((id) => [id, visionCostRank(id)]),
  );
  assert.deepEqual(ranks, {
    'claude-opus-4': 80,
    'gemini-ultra': 80,
    'kimi-max': 80,
    o3: 80,
    'openai/o1-preview': 80,
    'gpt-5-nano': 10,
    'claude-haiku-4.5': 10,
    'gpt-4o-mini': 10,
    'gemini-2.5-flash-lite': 10,
    'gemini-2.5-flash': 20,
    'mistral-small': 20,
    'grok-fast': 20,
    'claude-sonnet-4.5': 40,
    'gpt-5-codex': 40,
    'gpt-4o': 40,
    'gemini-2.5-pro': 50,
    'mistral-medium': 50,
    'glm-5': 60,
  });
});

test('the recommendation: a known pinned vision model (any provider), else the cheapest same-provider one by rank then id', () => {
  const rows = visionModelRows(
    [
      { id: 'coder', provider: 'a' },
      { id: 'see-pro', provider: 'a', vision: true },
      { id: 'see-b-mini', provider: 'a', vision: true },
      { id: 'see-a-mini', provider: 'a', vision: true },
      { id: 'other-nano', provider: 'b', vision: true },
      { id: 'listed', provider: 'a' },
    ],
    { ...DEFAULT_VISION_CONFIG, vision_models: ['listed'] },
    'a',
  );
  const cfg = { ...DEFAULT_VISION_CONFIG };
  assert.equal(recommendVisionModel(rows, cfg, 'coder', 'a')?.id, 'see-a-mini', 'same rank: by id');
  assert.equal(recommendVisionModel(rows, cfg, 'see-a-mini', 'a')?.id, 'see-b-mini', 'never the current model');
  assert.equal(recommendVisionModel(rows, { ...cfg, vision_model: 'other-nano' }, 'coder', 'a')?.id, 'other-nano');
  assert.equal(
    recommendVisionModel(rows, { ...cfg, vision_model: 'coder' }, 'coder', 'a')?.id,
    'see-a-mini',
    'a pin that cannot see is passed over',
  );
  assert.equal(recommendVisionModel(rows, cfg, 'x', 'c'), undefined, 'none on that provider');
  assert.equal(rows.find((r) => r.id === 'listed')?.vision, true, 'vision_models counts as seeing');
});
