import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../src/shared/sessionState';
import { statusOf } from './statusText';
import { supports } from '../infra/capabilities';
import { groupModels, reasoningLevels } from './modelOptions';
import { contextMeterOf, formatCost, formatTokens, usageSummary } from './usageFormat';
import { orderSessions, relativeTime } from '../sessions/sessionOrder';

test('status: core state first, then what the run is doing', () => {
  const s = initialSessionState();
  assert.deepEqual(statusOf(s), { tone: 'off', text: 'Core stopped' });
  s.core.status = 'ready';
  assert.equal(statusOf(s).text, 'Ready');
  s.run.status = 'waiting_approval';
  assert.deepEqual(statusOf(s), { tone: 'warn', text: 'Waiting for approval' });
  s.core.status = 'crashed';
  assert.equal(statusOf(s).tone, 'error');
});

test('capabilities: advertised ones, and v2 features unless the core is SCV', () => {
  const s = initialSessionState('embedded');
  assert.equal(supports(s, 'steer'), true);
  assert.equal(supports(s, 'allow_pattern'), false);
  s.core.capabilities = ['allow_pattern'];
  assert.equal(supports(s, 'allow_pattern'), true);
  const scv = initialSessionState('scv');
  assert.equal(supports(scv, 'steer'), false);
  scv.core.capabilities = ['steer'];
  assert.equal(supports(scv, 'steer'), true);
});

test('models group by provider in order of appearance; levels come from the current model', () => {
  const s = initialSessionState();
  s.models = [
    { id: 'a', provider: 'openrouter' },
    { id: 'b', provider: 'ollama' },
    { id: 'c', provider: 'openrouter', thinkingLevels: ['low', 'high'] },
    { id: 'd' },
  ];
  assert.deepEqual(
    groupModels(s.models).map((g) => [g.provider, g.models.map((m) => m.id)]),
    [
      ['openrouter', ['a', 'c']],
      ['ollama', ['b']],
      ['Other', ['d']],
    ],
  );
  assert.deepEqual(
    groupModels(s.models, 'ollama').map((g) => g.provider),
    ['ollama', 'openrouter', 'Other'],
    "the active provider's group comes first, the others keep their order",
  );
  assert.deepEqual(reasoningLevels(s), []);
  s.model = 'c';
  assert.deepEqual(reasoningLevels(s), ['low', 'high']);
});

test('usage figures and the context meter', () => {
  assert.deepEqual([0, 950, 1234, 12_345, 2_500_000].map(formatTokens), ['0', '950', '1.2k', '12k', '2.5M']);
  assert.equal(formatCost(undefined), undefined);
  assert.equal(formatCost(0.004), '< $0.01');
  assert.equal(formatCost(0.0123), '$0.0123');
  assert.equal(formatCost(1.234), '$1.23');
  assert.equal(formatCost(1.234, true), '$1.23+', 'a sum that leaves out unpriced requests says so');
  const s = initialSessionState();
  assert.equal(contextMeterOf(s), undefined);
  assert.equal(usageSummary(s), '');
  s.context = { tokens: 50_000, window: 200_000, pct: 25.4 };
  s.usage = { tokensIn: 12_000, tokensOut: 3400, cachedTokens: 0, costUsd: 0.5 };
  const meter = contextMeterOf(s)!;
  assert.equal(meter.pct, 25);
  assert.equal(meter.label, '25%');
  assert.ok(meter.title.includes('50k of 200k'));
  assert.equal(usageSummary(s), '↑12k ↓3.4k · $0.5000');
});

test('sessions: pinned first, then newest; filtered by title', () => {
  const base = { name: '', path: '', messages: 1, current: false };
  const list = [
    { ...base, path: '1', title: 'Old pinned', pinned: true, mtime: 1 },
    { ...base, path: '2', title: 'Newest', pinned: false, mtime: 30 },
    { ...base, path: '3', title: 'Middle', pinned: false, mtime: 20 },
  ];
  assert.deepEqual(
    orderSessions(list).map((s) => s.path),
    ['1', '2', '3'],
  );
  assert.deepEqual(
    orderSessions(list, 'mid').map((s) => s.path),
    ['3'],
  );
  assert.equal(relativeTime(0, 30_000), 'just now');
  assert.equal(relativeTime(0, 5 * 60_000), '5 min ago');
  assert.equal(relativeTime(0, 3 * 3_600_000), '3 h ago');
});
