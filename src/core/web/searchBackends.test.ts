import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EXA, retryAfterSecs, TAVILY } from './searchBackends';
import { SearchBackendState } from './searchBackendState';

describe('search backends', () => {
  test('hits come from results[], without entries lacking an http URL or a title, at most count of them', () => {
    const doc = {
      results: [
        { title: 'Rust Lang', url: 'https://www.rust-lang.org/', text: ' Empowering everyone. ', content: 'C' },
        { title: 'bad', url: 'not-a-url', text: 'x' },
        { title: '', url: 'https://example.com/', text: 'x' },
        { title: 'std', url: 'https://doc.rust-lang.org/std/', text: 'Std.', content: 'Std lib.' },
        { title: 'third', url: 'https://c.example/', text: '' },
      ],
    };
    assert.deepEqual(EXA.parse(doc, 2), [
      { title: 'Rust Lang', url: 'https://www.rust-lang.org/', snippet: 'Empowering everyone.' },
      { title: 'std', url: 'https://doc.rust-lang.org/std/', snippet: 'Std.' },
    ]);
    assert.equal(TAVILY.parse(doc, 10)[1].snippet, 'Std lib.', "Tavily's snippet is `content`");
    assert.deepEqual(EXA.parse({ requestId: 'x' }, 5), []);
    assert.deepEqual(TAVILY.parse({ results: 'not an array' }, 5), []);
  });

  test("upstream's cooldowns", () => {
    assert.deepEqual(EXA.cooldown(429, 5), { secs: 30, reason: 'rate-limited' });
    assert.deepEqual(EXA.cooldown(429, 90), { secs: 90, reason: 'rate-limited' });
    assert.equal(EXA.cooldown(403, 60)?.secs, 60);
    assert.equal(EXA.cooldown(402, 60)?.secs, 3600);
    assert.equal(TAVILY.cooldown(432, 60)?.secs, 3600);
    assert.equal(TAVILY.cooldown(433, 60)?.secs, 3600);
    assert.equal(TAVILY.cooldown(402, 60), undefined);
    assert.equal(EXA.cooldown(500, 60), undefined);
    assert.equal(retryAfterSecs('120'), 120);
    assert.equal(retryAfterSecs(undefined), 60);
    assert.equal(retryAfterSecs('Wed, 21 Oct 2015 07:28:00 GMT'), 60);
  });

  test('the round-robin starts each search on the next provider; a cooldown ends', () => {
    let now = 1_000_000;
    const state = new SearchBackendState(() => now);
    assert.deepEqual(state.order(['exa', 'tavily']), ['exa', 'tavily']);
    assert.deepEqual(state.order(['exa', 'tavily']), ['tavily', 'exa']);
    state.coolDown('exa', 30);
    assert.equal(state.cooldownLeft('exa'), 30);
    now += 30_000;
    assert.equal(state.cooldownLeft('exa'), 0);
  });
});
