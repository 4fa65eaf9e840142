import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../shared/sessionState';
import { describeStatus, shortModelName } from './statusPresentation';

function state(core: SessionState['core']['status'], run: SessionState['run']['status'] = 'idle'): SessionState {
  const s = initialSessionState();
  return { ...s, core: { ...s.core, status: core }, run: { status: run }, model: 'openrouter/anthropic/claude-sonnet-4', provider: 'openrouter', authed: true };
}

describe('describeStatus', () => {
  test('before any core started', () => {
    assert.match(describeStatus(undefined).text, /Catalyst$/);
  });

  test('each core and run state has its own label; the model shows once the core is ready', () => {
    const cases: [SessionState, RegExp, string][] = [
      [state('starting'), /starting$/, 'normal'],
      [state('restarting'), /restarting$/, 'warning'],
      [state('crashed'), /crashed$/, 'error'],
      [state('stopped'), /stopped$/, 'normal'],
      [state('ready'), /idle · claude-sonnet-4$/, 'normal'],
      [state('ready', 'running'), /running · claude-sonnet-4$/, 'normal'],
      [state('ready', 'waiting_approval'), /waiting for approval · claude-sonnet-4$/, 'warning'],
      [state('ready', 'waiting_input'), /waiting for input/, 'warning'],
    ];
    for (const [s, text, severity] of cases) {
      const p = describeStatus(s);
      assert.match(p.text, text);
      assert.match(p.text, /^\$\([a-z~-]+\) /, 'starts with a codicon');
      assert.equal(p.severity, severity, p.text);
    }
  });

  test('the tooltip names the provider, model, folder and session', () => {
    const s = { ...state('ready'), sessionFile: '/h/.config/catalyst-code/sessions/ab/2026-01-01.jsonl' };
    const tip = describeStatus(s, 'project').tooltip;
    assert.match(tip, /Provider: openrouter/);
    assert.match(tip, /Model: openrouter\/anthropic\/claude-sonnet-4/);
    assert.match(tip, /Workspace folder: project/);
    assert.match(tip, /Session: 2026-01-01\.jsonl/);
    assert.match(describeStatus({ ...s, authed: false }).tooltip, /not logged in/);
  });
});

describe('shortModelName', () => {
  test('keeps the last segment and truncates very long names', () => {
    assert.equal(shortModelName('a/b/c'), 'c');
    assert.equal(shortModelName('gpt-5'), 'gpt-5');
    assert.equal(shortModelName('x'.repeat(40)).length, 32);
  });
});
