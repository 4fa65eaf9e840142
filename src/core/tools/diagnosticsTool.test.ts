import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pollUntil, processGone } from '../../../test/support/processState';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import { pickChecker } from './diagnosticsChecker';
import { diagnosticsTool } from './diagnosticsTool';

/** A project-local tsc that prints its arguments and the given report, then exits with the given code. */
function fakeTsc(ws: TestWorkspace, dir: string, body: string): void {
  const abs = ws.write(path.join(dir, 'node_modules/.bin/tsc'), `#!/bin/sh\n${body}\n`);
  fs.chmodSync(abs, 0o755);
}

describe('diagnostics', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const signal = new AbortController().signal;

  test('picks the checker from the project files, the first of Cargo.toml, tsconfig.json, go.mod, *.py', async () => {
    ws.write('rust/Cargo.toml', '');
    ws.write('rust/tsconfig.json', '{}');
    ws.write('go/go.mod', 'module x\n');
    ws.write('py/pkg/a.py', 'x = 1\n');
    ws.write('py/.venv/lib/b.py', 'x = 1\n');
    ws.write('ts/tsconfig.json', '{}');
    const pick = (dir: string) => pickChecker(ws.root, path.join(ws.root, dir), signal);
    assert.deepEqual(await pick('rust'), { label: 'cargo check', program: 'cargo', args: ['check', '--message-format=short'] });
    assert.deepEqual(await pick('go'), { label: 'go build', program: 'go', args: ['build', './...'] });
    assert.deepEqual((await pick('py'))?.args.slice(2), ['pkg/a.py'], 'virtualenvs are skipped');
    assert.deepEqual(await pick('ts'), { label: 'tsc --noEmit', program: 'npx', args: ['--no-install', 'tsc', '--noEmit'] });
    fakeTsc(ws, '.', 'exit 0');
    assert.deepEqual(
      await pick('ts'),
      { label: 'tsc --noEmit', program: path.join(ws.root, 'node_modules/.bin/tsc'), args: ['--noEmit'] },
      "the project's own tsc, found up to the root",
    );
    ws.write('docs/notes.txt', 'hi');
    assert.equal(await pick('docs'), undefined);
  });

  test("reports the checker's output headed by its name; ok only when it exits 0", async () => {
    ws.write('tsconfig.json', '{}');
    fakeTsc(ws, '.', "echo \"src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'. ($*)\"; exit 2");
    const broken = await diagnosticsTool.execute({}, ws.context());
    assert.equal(broken.ok, false);
    assert.equal(broken.output, "tsc --noEmit\nsrc/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'. (--noEmit)");
    fakeTsc(ws, '.', 'exit 0');
    assert.deepEqual(
      [(await diagnosticsTool.execute({ path: '.' }, ws.context())).ok, (await diagnosticsTool.execute({}, ws.context())).output],
      [true, 'tsc --noEmit\n(no diagnostics — clean)'],
    );
  });

  test('compiles Python files without writing .pyc files into the project', async () => {
    ws.write('ok.py', 'x = 1\n');
    ws.write('bad.py', 'def f(:\n');
    const outcome = await diagnosticsTool.execute({}, ws.context());
    assert.equal(outcome.ok, false);
    assert.match(outcome.output, /^py_compile\nbad\.py:1: SyntaxError: /);
    assert.ok(!fs.existsSync(path.join(ws.root, '__pycache__')));
  });

  test('says so honestly when no checker applies; refuses escapes and files', async () => {
    ws.write('notes.txt', 'hi');
    const none = await diagnosticsTool.execute({}, ws.context());
    assert.equal(none.ok, false);
    assert.equal(
      none.output,
      'diagnostics: no checker applies to . (no Cargo.toml, tsconfig.json or go.mod there, and no *.py files under it)',
    );
    assert.match((await diagnosticsTool.execute({ path: '..' }, ws.context())).output, /'\.\.'/);
    assert.match((await diagnosticsTool.execute({ path: 'notes.txt' }, ws.context())).output, /not a directory/);
  });

  test("an abort kills the checker's whole process group and the result is cancelled", async () => {
    ws.write('tsconfig.json', '{}');
    fakeTsc(ws, '.', 'echo $$ > checker.pid\nexec sleep 60');
    const abort = new AbortController();
    const running = diagnosticsTool.execute({}, ws.context({ signal: abort.signal }));
    const pidFile = path.join(ws.root, 'checker.pid');
    assert.ok(await pollUntil(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').endsWith('\n')));
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    abort.abort();
    const outcome = await running;
    assert.deepEqual([outcome.ok, outcome.status, outcome.output], [false, 'cancelled', 'diagnostics aborted']);
    assert.ok(await pollUntil(() => processGone(pid)), 'the checker was killed');
  });

  test('targets the directory it checks', () => {
    assert.deepEqual(diagnosticsTool.targets({}), { paths: [] });
    assert.deepEqual(diagnosticsTool.targets({ path: 'crates/a' }), { paths: ['crates/a'] });
  });
});
