import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { globTool } from './globTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('glob', () => {
  let ws: TestWorkspace;
  beforeEach(() => (ws = makeTestWorkspace()));
  afterEach(() => ws.cleanup());
  const glob = async (pattern: string) => (await globTool.execute({ pattern }, ws.context())).output;

  test('lists matches newest first, skipping .git and node_modules', async () => {
    const stamp = (rel: string, secondsAgo: number) => {
      const when = new Date(Date.now() - secondsAgo * 1000);
      fs.utimesSync(ws.write(rel, ''), when, when);
    };
    stamp('old.ts', 300);
    stamp('src/newest.ts', 10);
    stamp('src/mid.ts', 100);
    stamp('node_modules/x/index.ts', 1);
    stamp('.git/hooks/a.ts', 1);
    stamp('readme.md', 1);
    assert.equal(await glob('**/*.ts'), 'src/newest.ts\nsrc/mid.ts\nold.ts');
  });

  test('caps at 200 results with a note', async () => {
    for (let i = 0; i < 205; i++) ws.write(`f/${i}.txt`, '');
    const lines = (await glob('f/*.txt')).split('\n');
    assert.equal(lines.length, 201);
    assert.match(lines[200], /205 files match; showing the 200 most recently modified/);
  });

  test('no match, and patterns reaching outside the workspace', async () => {
    assert.equal(await glob('*.nothing'), 'No files match *.nothing.');
    assert.match(await glob('../**/*'), /workspace-relative/);
    assert.match(await glob(path.join(ws.root, '*')), /workspace-relative/);
  });

  test('targets the directory before the first wildcard, so confinement sees where the pattern searches', () => {
    const base = (pattern?: string) => globTool.targets(pattern === undefined ? {} : { pattern }).paths;
    assert.deepEqual(base('**/*.ts'), ['.']);
    assert.deepEqual(base('src/**/index.*'), ['src']);
    assert.deepEqual(base('README.md'), ['README.md']);
    assert.deepEqual(base('../x/*'), ['../x']);
    assert.deepEqual(base('/etc/*'), ['/etc']);
    assert.deepEqual(base(), ['.']);
  });
});
