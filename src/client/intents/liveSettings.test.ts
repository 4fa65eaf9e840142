import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLaunchSettings, type LaunchSettings } from '../channel/launchSettings';
import { configChangedText } from '../state/reduceSettings';
import { settingsChange } from './liveSettings';

const base: LaunchSettings = readLaunchSettings(() => undefined);
const withSettings = (over: Partial<LaunchSettings>): LaunchSettings => ({ ...base, ...over });

test('bash timeout, auto-compact and the approval mode change live, without a restart', () => {
  assert.deepEqual(settingsChange(base, withSettings({ bashTimeoutSecs: 90, autoCompact: false, approvalMode: 'always' })), {
    live: [
      { key: 'bash_timeout_secs', value: 90 },
      { key: 'auto_compact', value: false },
    ],
    approvalMode: 'always',
    restart: false,
  });
  assert.deepEqual(settingsChange(base, base), { live: [], restart: false });
});

test("the rest needs a restart, and so does a bash timeout set back to the core's own default", () => {
  assert.deepEqual(settingsChange(base, withSettings({ args: ['--debug-log', '/tmp/x'] })), { live: [], restart: true });
  assert.deepEqual(settingsChange(base, withSettings({ webEnabled: false, autoCompact: false })), {
    live: [{ key: 'auto_compact', value: false }],
    restart: true,
  });
  assert.deepEqual(settingsChange(withSettings({ bashTimeoutSecs: 60 }), base), { live: [], restart: true });
});

test('an SCV server takes no set_config: any change there is a restart', () => {
  const scv = withSettings({ kind: 'scv' });
  assert.deepEqual(settingsChange(scv, { ...scv, bashTimeoutSecs: 10 }), { live: [], restart: true });
  assert.deepEqual(settingsChange(base, scv), { live: [], restart: true });
  assert.deepEqual(settingsChange(scv, scv), { live: [], restart: false });
});

test("config_changed's notice names the new value", () => {
  assert.equal(configChangedText('bash_timeout_secs', 90), 'Shell commands now time out after 90 s.');
  assert.equal(configChangedText('auto_compact', false), 'Auto-compact is off.');
  assert.equal(configChangedText('sandbox', 'none'), 'Setting sandbox is now "none".');
});
