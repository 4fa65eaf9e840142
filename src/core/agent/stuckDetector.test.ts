import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { coreTools } from '../app/allTools';
import { StuckDetector } from './stuckDetector';

const call = (name: string, args: Record<string, unknown> | string) => ({
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

/** Records the calls one batch each and returns after which ones the detector nudged (1-based). */
function nudgedAfter(calls: { name: string; arguments: string }[]): number[] {
  const detector = new StuckDetector(coreTools);
  const hits: number[] = [];
  calls.forEach((c, i) => {
    detector.record(c);
    if (detector.check() !== undefined) hits.push(i + 1);
  });
  return hits;
}

describe('StuckDetector', () => {
  test('nudges after 3 identical read-only calls, then after 5, then 7', () => {
    const grep = call('grep', { pattern: 'TODO' });
    assert.deepEqual(nudgedAfter(Array(15).fill(grep)), [3, 8, 15]);
  });

  test('incidental arguments do not make a call different; the key argument does', () => {
    assert.deepEqual(
      nudgedAfter([
        call('grep', { pattern: 'x', path: 'src' }),
        call('grep', { pattern: 'x', glob: '*.ts' }),
        call('grep', { pattern: 'x' }),
      ]),
      [3],
    );
    assert.deepEqual(
      nudgedAfter([call('read_file', { path: 'a' }), call('read_file', { path: 'b' }), call('read_file', { path: 'a' })]),
      [],
    );
    assert.deepEqual(
      nudgedAfter([call('read_file', { path: 'a' }), call('list_dir', { path: 'a' }), call('read_file', { path: 'a' })]),
      [],
    );
  });

  test('a mutating or unknown tool never counts as spinning, nor does finish', () => {
    assert.deepEqual(nudgedAfter(Array(4).fill(call('bash', { command: 'ls' }))), []);
    assert.deepEqual(nudgedAfter(Array(4).fill(call('some_plugin_tool', { path: 'a' }))), []);
    assert.deepEqual(nudgedAfter(Array(4).fill(call('finish', {}))), []);
    const read = call('read_file', { path: 'a' });
    assert.deepEqual(nudgedAfter([read, read, call('write_file', { path: 'a', content: '' }), read, read]), []);
  });

  test('a batch is checked as a whole: three identical calls in one message nudge once', () => {
    const detector = new StuckDetector(coreTools);
    for (let i = 0; i < 3; i++) detector.record(call('read_file', { path: 'src/main.ts', offset: i * 10 }));
    const message = detector.check();
    assert.match(message ?? '', /^You have called `read_file` on src\/main\.ts 3 times in a row/);
    assert.equal(detector.check(), undefined, 'the window was cleared');
  });

  test('unparseable arguments are one signature; a long key is capped', () => {
    assert.deepEqual(nudgedAfter(Array(3).fill(call('read_file', '{not json'))), [3]);
    const detector = new StuckDetector(coreTools);
    for (let i = 0; i < 3; i++) detector.record(call('grep', { pattern: 'p'.repeat(5000) }));
    assert.ok((detector.check() ?? '').length < 1000);
  });
});
