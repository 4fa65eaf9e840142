import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { formatStatsMarkdown } from './statsMarkdown';

describe('formatStatsMarkdown', () => {
  const state = { ...initialSessionState(), provider: 'local', model: 'm1', sessionFile: '/s/1.jsonl' };

  test('renders usage and context tables', () => {
    const md = formatStatsMarkdown(
      state,
      {
        type: 'stats',
        tokens_in: 1200,
        tokens_out: 300,
        total_in: 5000,
        cached_tokens: 10,
        cache_hit_ratio: 0.25,
        turns: 3,
        messages: 9,
        compactions: 0,
      },
      {
        type: 'context_breakdown',
        total_tokens: 1200,
        context_window: 128000,
        pct: 0.9375,
        by_role: { user: 200, assistant: 1000 },
        system_tokens: 400,
        rules_tokens: 150,
        top_consumers: [{ index: 2, role: 'tool', tokens: 800, preview: 'a | b\nc' }],
      },
    );
    assert.match(md, /^# Catalyst Code — session stats/);
    assert.match(md, /\| Provider \| local \|/);
    assert.match(md, /\| Turns \| 3 \|/);
    assert.match(md, /\| Cache hit ratio \| 25\.0 % \|/);
    assert.match(md, /\| Used \/ window \| 1,200 \/ 128,000 \(0\.9 %\) \|/);
    assert.match(md, /\| Role: assistant \| 1,000 \|/);
    assert.match(md, /\| Project rules \(in the system prompt\) \| 150 \|/);
    assert.match(md, /\| #2 tool \| 800 — a \\\| b c \|/, 'pipes escaped, newlines flattened');
  });

  test('tolerates bare upstream-style events and says when nothing came back', () => {
    assert.doesNotThrow(() => formatStatsMarkdown(state, { type: 'stats' }, { type: 'context_breakdown', top_consumers: [{} as never] }));
    assert.match(formatStatsMarkdown(state), /did not report stats/);
  });
});
