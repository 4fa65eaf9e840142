import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionStats, sessionStatsPath, writeSessionStats, type SessionFigures } from './sessionStats';

const session = () => join(mkdtempSync(join(tmpdir(), 'stats-')), 's.jsonl');

const FIGURES: SessionFigures = {
  tokens_in: 1200,
  tokens_out: 40,
  cached_tokens: 200,
  last_prompt_tokens: 1200,
  turns: 1,
  compactions: 0,
  tool_calls: 2,
  bash_calls: 1,
  edit_calls: 0,
  by_model: [{ provider: 'p', model: 'm', requests: 1, tokens_in: 1200, tokens_out: 40, cached_tokens: 200, estimated_usd: 0.0028 }],
};

test('written figures read back as they were', () => {
  const path = session();
  writeSessionStats(path, FIGURES);
  assert.deepEqual(readSessionStats(path), FIGURES);
});

test('no sidecar, a cut-off one or one that is not ours: no figures, the session starts from nothing', () => {
  const path = session();
  assert.equal(readSessionStats(path), undefined);
  writeFileSync(sessionStatsPath(path), '{"tokens_in": 12, "by_mo');
  assert.equal(readSessionStats(path), undefined);
  writeFileSync(sessionStatsPath(path), '{"tokens_in": 12}\n');
  assert.equal(readSessionStats(path), undefined);
});

test('a bad price reads as unknown (null), never as zero; bad counters as 0; rows without a model are dropped', () => {
  const path = session();
  const rows = [
    { provider: 'p', model: 'm', requests: 3, estimated_usd: 'cheap' },
    { provider: 'p', model: 'n', requests: -1, estimated_usd: -2 },
    { provider: 'p', requests: 1, estimated_usd: 1 },
  ];
  writeFileSync(sessionStatsPath(path), JSON.stringify({ turns: 'many', tokens_in: 5, by_model: rows }));
  const read = readSessionStats(path)!;
  assert.equal(read.turns, 0);
  assert.equal(read.tokens_in, 5);
  assert.deepEqual(
    read.by_model.map((m) => [m.model, m.requests, m.estimated_usd]),
    [
      ['m', 3, null],
      ['n', 0, null],
    ],
  );
});

test('keys another client wrote into the sidecar are kept', () => {
  const path = session();
  writeFileSync(sessionStatsPath(path), JSON.stringify({ theirs: { x: 1 }, turns: 9 }));
  writeSessionStats(path, FIGURES);
  const raw = JSON.parse(readFileSync(sessionStatsPath(path), 'utf8'));
  assert.deepEqual(raw.theirs, { x: 1 });
  assert.equal(raw.turns, 1);
});
