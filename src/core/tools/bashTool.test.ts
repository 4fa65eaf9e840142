import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { bashTool } from './bashTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { pollUntil, processGone } from '../../../test/support/processState';

describe('bash', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());

  test('runs in the workspace and returns stdout and stderr', async () => {
    const outcome = await bashTool.execute({ command: 'pwd; echo to-stderr >&2' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.status], [true, 'success']);
    assert.ok(outcome.output.includes(ws.root), outcome.output);
    assert.ok(outcome.output.includes('to-stderr'));
    assert.equal((await bashTool.execute({ command: 'true' }, ws.context())).output, '(no output)');
  });

  test('a non-zero exit fails with the code in the output', async () => {
    const outcome = await bashTool.execute({ command: 'echo partial; exit 3' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.status, outcome.output], [false, 'failed', 'partial\n[exit code 3]']);
  });

  test('a timeout kills the whole process group', async () => {
    const command = 'echo $$ > shell.pid; sleep 30 & echo $! > child.pid; sleep 30; wait';
    const outcome = await bashTool.execute({ command, timeout: 1 }, ws.context());
    assert.deepEqual([outcome.ok, outcome.status], [false, 'timed_out']);
    assert.match(outcome.output, /timed out after 1s/);
    for (const file of ['shell.pid', 'child.pid']) {
      const pid = Number(ws.read(file).trim());
      assert.ok(await pollUntil(() => processGone(pid)), `${file} ${pid} survived`);
    }
  });

  test('the timeout is clamped to the configured maximum', async () => {
    const outcome = await bashTool.execute({ command: 'sleep 30', timeout: 9999 }, ws.context({ maxBashTimeoutSecs: 1 }));
    assert.equal(outcome.status, 'timed_out');
    assert.match(outcome.output, /after 1s/);
  });

  test('aborting the run kills the process group and reports cancelled', async () => {
    const controller = new AbortController();
    const running = bashTool.execute({ command: 'sleep 30 & echo $! > child.pid; wait' }, ws.context({ signal: controller.signal }));
    assert.ok(await pollUntil(() => ws.exists('child.pid') && ws.read('child.pid').trim() !== ''));
    controller.abort();
    const outcome = await running;
    assert.deepEqual([outcome.ok, outcome.status], [false, 'cancelled']);
    const pid = Number(ws.read('child.pid').trim());
    assert.ok(await pollUntil(() => processGone(pid)), `child ${pid} survived`);
  });

  test('an already-aborted run does not start the command', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await bashTool.execute({ command: 'touch ran' }, ws.context({ signal: controller.signal }));
    assert.equal(outcome.status, 'cancelled');
    assert.equal(ws.exists('ran'), false);
  });

  test('caps output at 32 KiB, keeping head and tail', async () => {
    const outcome = await bashTool.execute({ command: "echo START; head -c 200000 /dev/zero | tr '\\0' a; echo; echo END" }, ws.context());
    assert.ok(outcome.output.length < 33 * 1024, `output is ${outcome.output.length} chars`);
    assert.ok(outcome.output.startsWith('START\naaa'));
    assert.ok(outcome.output.endsWith('aaa\nEND'));
    assert.match(outcome.output, /… \[\d+ bytes of output omitted\] …/);
  });

  test('the denylist blocks catastrophic commands without running them', async () => {
    const outcome = await bashTool.execute({ command: 'touch ran; rm -rf /' }, ws.context());
    assert.deepEqual([outcome.ok, outcome.status], [false, 'failed']);
    assert.match(outcome.output, /blocked by the denylist/);
    assert.equal(ws.exists('ran'), false);
  });

  test('sudo asks the user first; a denial does not run anything', async () => {
    const asked: string[] = [];
    const ctx = ws.context({ requestSudo: async (command) => (asked.push(command), { approved: false }) });
    const outcome = await bashTool.execute({ command: 'touch ran && sudo true' }, ctx);
    assert.deepEqual([outcome.ok, outcome.status], [false, 'denied']);
    assert.deepEqual(asked, ['touch ran && sudo true']);
    assert.equal(ws.exists('ran'), false);
  });

  test('an approved sudo reads the password from stdin, which never shows in the output', async () => {
    // A stand-in `sudo` first on PATH: it prints its arguments and the line it reads from stdin.
    const bin = path.join(ws.root, 'fakebin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'sudo'), '#!/bin/sh\nread -r line\necho "args:$*"\necho "stdin:$line"\n', { mode: 0o755 });
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    try {
      const ctx = ws.context({ requestSudo: async () => ({ approved: true, password: 'hunter2-secret' }) });
      const outcome = await bashTool.execute({ command: 'sudo echo hi' }, ctx);
      assert.equal(outcome.status, 'success');
      assert.match(outcome.output, /^args:-S -p +echo hi$/m);
      assert.match(outcome.output, /^stdin:\*{8}$/m);
      assert.ok(!outcome.output.includes('hunter2-secret'));
    } finally {
      process.env.PATH = savedPath;
    }
  });

  test('targets no path, only its command', () => {
    assert.deepEqual(bashTool.targets({ command: 'ls -la' }), { paths: [], command: 'ls -la' });
    assert.deepEqual(bashTool.targets({}), { paths: [], command: '' });
  });
});
