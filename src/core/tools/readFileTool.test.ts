import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileTool } from './readFileTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('read_file', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const read = (args: Record<string, unknown>) => readFileTool.execute(args, ws.context());

  test('returns a small file exactly', async () => {
    ws.write('a.txt', 'one\r\ntwo\nno final newline');
    const outcome = await read({ path: 'a.txt' });
    assert.deepEqual([outcome.ok, outcome.status, outcome.output], [true, 'success', 'one\r\ntwo\nno final newline']);
  });

  test('numbers lines on request and pages with offset/limit', async () => {
    ws.write('n.txt', Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join('\n') + '\n');
    assert.equal(
      (await read({ path: 'n.txt', offset: 9, limit: 2, line_numbers: true })).output,
      ' 9|l9\n10|l10\n\n[showing lines 9-10 of 12; pass offset=11 to continue]',
    );
    assert.equal((await read({ path: 'n.txt', offset: '11' })).output, 'l11\nl12\n\n[showing lines 11-12 of 12]');
  });

  test('shows at most 2000 lines, with a note, and cuts very long lines', async () => {
    ws.write('big.txt', Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join('\n'));
    const output = (await read({ path: 'big.txt' })).output;
    assert.ok(output.startsWith('row 1\nrow 2\n'));
    assert.ok(output.includes('row 2000\n') && !output.includes('row 2001'));
    assert.ok(output.endsWith('[showing lines 1-2000 of 2500; pass offset=2001 to continue]'));
    ws.write('wide.txt', 'x'.repeat(5000));
    assert.match((await read({ path: 'wide.txt' })).output, /^x{2000}… \[line cut at 2000 of 5000 chars\]/);
  });

  test('refuses binary files, directories, missing files and escapes', async () => {
    ws.write('bin.dat', Buffer.from([1, 2, 0, 3]));
    ws.write('dir/x', '');
    for (const [path, message] of [
      ['bin.dat', /binary/],
      ['dir', /is a directory/],
      ['nope.txt', /no such file/],
      ['../x', /'\.\.'/],
    ] as const) {
      const outcome = await read({ path });
      assert.deepEqual([outcome.ok, outcome.status], [false, 'failed'], path);
      assert.match(outcome.output, message);
    }
  });

  test('an offset past the end fails helpfully; an empty file says so', async () => {
    ws.write('two.txt', 'a\nb\n');
    assert.match((await read({ path: 'two.txt', offset: 5 })).output, /past the end .*\(2 lines\)/);
    ws.write('empty.txt', '');
    assert.equal((await read({ path: 'empty.txt' })).output, '(empty.txt is empty)');
  });

  test('targets the path it reads, and nothing when the path is missing', () => {
    assert.deepEqual(readFileTool.targets({ path: 'src/a.ts', offset: 3 }), { paths: ['src/a.ts'] });
    assert.deepEqual(readFileTool.targets({}), { paths: [] });
  });
});
