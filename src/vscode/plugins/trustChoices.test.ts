import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PluginTrustEntryView } from '../../shared/pluginState';
import { allDecided, changedDecisions, pickedDecisions, promptKey, trustDetail } from './trustChoices';

const entry = (name: string, path: string, decision: PluginTrustEntryView['decision'] = ''): PluginTrustEntryView => ({
  name,
  version: '1.0.0',
  description: `the ${name} plugin`,
  path,
  decision,
});
const A = entry('lint', '/ws/a/lint');
const B = entry('lint', '/ws/b/lint');

test('decisions are keyed by path, so two plugins with one name are decided apart', () => {
  assert.deepEqual(allDecided([A, B], 'deny'), { '/ws/a/lint': 'deny', '/ws/b/lint': 'deny' });
  assert.deepEqual(pickedDecisions([A, B], ['/ws/b/lint']), { '/ws/a/lint': 'deny', '/ws/b/lint': 'trust' });
});

test('Manage Plugin Trust… sends only the changed decisions', () => {
  const trusted = entry('fmt', '/ws/fmt', 'trust');
  assert.deepEqual(changedDecisions([A, trusted], pickedDecisions([A, trusted], ['/ws/fmt'])), { '/ws/a/lint': 'deny' });
  assert.deepEqual(changedDecisions([A, trusted], pickedDecisions([A, trusted], ['/ws/a/lint', '/ws/fmt'])), { '/ws/a/lint': 'trust' });
});

test('the prompt key does not depend on the order of the entries; the detail names every plugin and its folder', () => {
  assert.equal(promptKey('file:///ws', [A, B]), promptKey('file:///ws', [B, A]));
  assert.notEqual(promptKey('file:///ws', [A]), promptKey('file:///ws', [A, B]));
  const detail = trustDetail([A, B]);
  for (const s of ['lint 1.0.0 — the lint plugin', '/ws/a/lint', '/ws/b/lint']) assert.ok(detail.includes(s), s);
});
