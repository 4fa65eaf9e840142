import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState } from '../../shared/sessionState';
import { clockText, describeStatus, shortModelName } from './statusPresentation';

function state(core: SessionState['core']['status'], run: SessionState['run']['status'] = 'idle'): SessionState {
  const s = initialSessionState();
  return {
    ...s,
    core: { ...s.core, status: core },
    run: { status: run },
    model: 'openrouter/anthropic/claude-sonnet-4',
    provider: 'openrouter',
    authed: true,
  };
}

describe('describeStatus', () => {
  test('a rate limit shows "rate limited until HH:MM" while it lasts and nothing runs', () => {
    const now = Date.UTC(2026, 11, 2, 6, 0, 0);
    const until = now / 1000 + 600;
    const limited = { ...state('ready'), rateLimitedUntil: until };
    const p = describeStatus(limited, undefined, now);
    assert.equal(p.text, `$(watch) Catalyst: rate limited until ${clockText(until)} · claude-sonnet-4`);
    assert.equal(p.severity, 'warning');
    assert.match(describeStatus(limited, undefined, until * 1000 + 1).text, /idle/, 'over once the time has passed');
    assert.match(describeStatus({ ...limited, run: { status: 'running' } }, undefined, now).text, /running/);
  });

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

describe('describeStatus for an SCV server', () => {
  const scv = (status: SessionState['core']['status'], version?: string): SessionState => {
    const s = state(status);
    return { ...s, core: { ...s.core, kind: 'scv', ...(version ? { version } : {}) }, provider: 'scv', model: 'gpt-5' };
  };

  test('the label names the server and its version instead of Catalyst', () => {
    assert.equal(describeStatus(scv('ready', '0.3.14')).text, '$(comment-discussion) SCV 0.3.14: idle · gpt-5');
    assert.equal(describeStatus(scv('starting')).text, '$(loading~spin) SCV: starting');
    assert.equal(describeStatus(scv('crashed', '0.3.14')).severity, 'error');
  });

  test('the tooltip says SCV server and its version, and no provider login line', () => {
    const tip = describeStatus(scv('ready', '0.3.14'), 'project').tooltip;
    assert.match(tip, /^Catalyst Code — SCV server 0\.3\.14 ready$/m);
    assert.doesNotMatch(tip, /Provider:/);
    assert.match(tip, /Model: gpt-5/);
  });
});

describe('shortModelName', () => {
  test('keeps the last segment and truncates very long names', () => {
    assert.equal(shortModelName('a/b/c'), 'c');
    assert.equal(shortModelName('gpt-5'), 'gpt-5');
    assert.equal(shortModelName('x'.repeat(40)).length, 32);
  });
});
