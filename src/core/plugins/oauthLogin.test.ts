import { test } from 'node:test';
import assert from 'node:assert/strict';
import { likelyHeadless } from './oauthLogin';

test("headless detection follows upstream's likely_headless", () => {
  assert.equal(likelyHeadless({ CATALYST_CODE_NO_BROWSER: '1', DISPLAY: ':0' }, 'linux'), true);
  assert.equal(likelyHeadless({ CATALYST_CODE_NO_BROWSER: '0', SSH_TTY: '/dev/pts/1' }, 'linux'), false, 'a falsy flag wins over SSH');
  assert.equal(likelyHeadless({ NO_BROWSER: 'true' }, 'darwin'), true);
  assert.equal(likelyHeadless({ SSH_CONNECTION: '1 2 3 4' }, 'darwin'), true);
  assert.equal(likelyHeadless({}, 'linux'), true, 'no display on Linux');
  assert.equal(likelyHeadless({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux'), false);
  assert.equal(likelyHeadless({}, 'darwin'), false);
  assert.equal(likelyHeadless({}, 'win32'), false);
});
