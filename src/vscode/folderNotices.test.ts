import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intercomNeedsToast, noticePrefix, pluginErrorToast } from './folderNotices';

test('a notification names its folder only when several folders have cores', () => {
  assert.equal(noticePrefix('api', 1), 'Catalyst Code: ');
  assert.equal(noticePrefix('api', 2), 'Catalyst Code [api]: ');
});

test('the plugin_error toast says which plugin and, with several cores, which folder', () => {
  const event = { type: 'plugin_error', name: 'greeter', message: 'install failed: no manifest' };
  assert.equal(pluginErrorToast(event, noticePrefix('web', 1)), 'Catalyst Code: plugin greeter: install failed: no manifest');
  assert.equal(pluginErrorToast(event, noticePrefix('web', 3)), 'Catalyst Code [web]: plugin greeter: install failed: no manifest');
  assert.equal(
    pluginErrorToast({ message: 'the plugins dir is unreadable' }, 'Catalyst Code: '),
    'Catalyst Code: plugin the plugins dir is unreadable',
  );
});

test('a trusted plugin that failed to load gets the toast with the core’s reason', () => {
  // The event the core sends after plugin_trust_applied when a plugin just trusted did not load (test/core/plugins.test.ts).
  const event = {
    type: 'plugin_error',
    name: 'noexec',
    message: 'failed to load plugin in "noexec": hook script "h.js" is not executable (try chmod +x)',
  };
  assert.equal(
    pluginErrorToast(event, noticePrefix('web', 1)),
    'Catalyst Code: plugin noexec: failed to load plugin in "noexec": hook script "h.js" is not executable (try chmod +x)',
  );
});

test('a plugin_error without a message shows no toast', () => {
  assert.equal(pluginErrorToast({ name: 'greeter' }, 'Catalyst Code: '), undefined);
  assert.equal(pluginErrorToast({ name: 'greeter', message: '  ' }, 'Catalyst Code: '), undefined);
  assert.equal(pluginErrorToast({ name: 'greeter', message: 42 }, 'Catalyst Code: '), undefined);
});

test("a subagent's question is a notification unless the chat on screen is the asking core's", () => {
  assert.equal(intercomNeedsToast(false, true), true, 'no chat on screen');
  assert.equal(intercomNeedsToast(true, true), false, "the chat shows the asking core's card");
  assert.equal(intercomNeedsToast(true, false), true, 'the chat on screen shows another folder');
  assert.equal(intercomNeedsToast(false, false), true);
});
