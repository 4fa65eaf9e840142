import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { grepTool } from './grepTool';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';

describe('grep', () => {
  let ws: TestWorkspace;
  beforeEach(() => {
    ws = makeTestWorkspace();
    ws.write('src/a.ts', 'import x from "y";\nconst fooBar = 1;\nexport const foo = fooBar;\n');
    ws.write('src/b.js', 'function foo() {}\n');
    ws.write('src/a.test.ts', 'test("foo", () => {});\n');
    ws.write('docs/readme.md', 'Foo is documented here.\n');
    ws.write('.gitignore', 'dist/\n*.log\n');
    ws.write('dist/out.js', 'foo in build output\n');
    ws.write('debug.log', 'foo in a log\n');
    ws.write('node_modules/pkg/index.js', 'foo in a dependency\n');
    ws.write('.git/config', 'foo in git internals\n');
    ws.write('image.png', Buffer.concat([Buffer.from('foo'), Buffer.from([0, 1, 2])]));
    ws.write('huge.txt', `${'x'.repeat(1024 * 1024)}\nfoo\n`);
  });
  afterEach(() => ws.cleanup());
  const grep = async (args: Record<string, unknown>) => (await grepTool.execute(args, ws.context())).output;

  test('finds matches as path:line:text, honouring .gitignore and skipping .git, node_modules, binary and huge files', async () => {
    assert.equal(
      await grep({ pattern: 'foo' }),
      [
        'src/a.test.ts:1:test("foo", () => {});',
        'src/a.ts:2:const fooBar = 1;',
        'src/a.ts:3:export const foo = fooBar;',
        'src/b.js:1:function foo() {}',
      ].join('\n'),
    );
  });

  test('an explicitly named ignored directory is still searched', async () => {
    assert.equal(await grep({ pattern: 'foo', path: 'dist' }), 'dist/out.js:1:foo in build output');
  });

  test('case_insensitive, word, fixed_string and (?i)', async () => {
    assert.match(await grep({ pattern: 'foo is', case_insensitive: true }), /^docs\/readme\.md:1:Foo is documented here\.$/);
    assert.match(await grep({ pattern: '(?i)FOO IS' }), /docs\/readme\.md:1/);
    assert.equal(await grep({ pattern: 'foo', word: true, path: 'src/a.ts' }), 'src/a.ts:3:export const foo = fooBar;');
    assert.equal(await grep({ pattern: 'foo()', fixed_string: true }), 'src/b.js:1:function foo() {}');
  });

  test('type and glob (with ! exclusions) filter files', async () => {
    assert.equal(await grep({ pattern: 'foo', type: 'js', output_mode: 'files_with_matches' }), 'src/b.js');
    assert.equal(await grep({ pattern: 'foo', glob: ['**/*.ts', '!**/*.test.ts'], output_mode: 'files_with_matches' }), 'src/a.ts');
    assert.equal(await grep({ pattern: 'foo', glob: '*.md', case_insensitive: true, output_mode: 'files_with_matches' }), 'docs/readme.md');
    assert.match(await grep({ pattern: 'foo', type: 'cobol' }), /unknown type "cobol"/);
  });

  test('count and files_with_matches modes, invert', async () => {
    assert.equal(await grep({ pattern: 'foo', path: 'src', output_mode: 'count' }), 'src/a.test.ts:1\nsrc/a.ts:2\nsrc/b.js:1');
    assert.equal(
      await grep({ pattern: 'import', path: 'src', output_mode: 'files_with_matches', invert: true }),
      'src/a.test.ts\nsrc/b.js',
    );
    assert.equal(await grep({ pattern: 'foo', path: 'src/a.ts', invert: true }), 'src/a.ts:1:import x from "y";');
  });

  test('context lines use "-" and groups are separated by "--"', async () => {
    ws.write('c.txt', 'a\nmatch1\nb\nc\nd\ne\nmatch2\nf\n');
    assert.equal(
      await grep({ pattern: 'match', path: 'c.txt', context: 1 }),
      'c.txt-1-a\nc.txt:2:match1\nc.txt-3-b\n--\nc.txt-6-e\nc.txt:7:match2\nc.txt-8-f',
    );
    assert.equal(await grep({ pattern: 'match2', path: 'c.txt', before: 2 }), 'c.txt-5-d\nc.txt-6-e\nc.txt:7:match2');
  });

  test('paginates with head_limit and offset', async () => {
    ws.write('many.txt', Array.from({ length: 120 }, (_, i) => `hit ${i + 1}`).join('\n'));
    const first = await grep({ pattern: 'hit', path: 'many.txt' });
    assert.equal(first.split('\n').length, 51);
    assert.match(first, /\[showing matches 1-50; more exist: pass offset=50 to continue\]$/);
    assert.equal(
      await grep({ pattern: 'hit', path: 'many.txt', head_limit: 2, offset: 118 }),
      'many.txt:119:hit 119\nmany.txt:120:hit 120',
    );
  });

  test('reports no matches, bad patterns and escapes', async () => {
    assert.equal(await grep({ pattern: 'zzzz', path: 'src' }), 'No matches found.');
    assert.match(await grep({ pattern: '(' }), /invalid regular expression/);
    assert.match(await grep({ pattern: 'x', path: '../' }), /'\.\.'/);
    assert.match(await grep({ pattern: 'x', path: 'nope' }), /no such file/);
  });

  test('targets the roots it searches: paths over path, the workspace root by default', () => {
    assert.deepEqual(grepTool.targets({ pattern: 'x' }), { paths: ['.'] });
    assert.deepEqual(grepTool.targets({ pattern: 'x', path: 'src' }), { paths: ['src'] });
    assert.deepEqual(grepTool.targets({ pattern: 'x', path: 'src', paths: ['a', 'b'] }), { paths: ['a', 'b'] });
    assert.deepEqual(grepTool.targets({ pattern: 'x', path: 'src', paths: ['', 3] }), { paths: ['src'] });
  });

  test('targets a root given as a string in paths, which the search accepts, so a restricted one is seen', async () => {
    ws.write('.env', 'TOKEN=abc\n');
    assert.deepEqual(grepTool.targets({ pattern: 'TOKEN', paths: '.env' }), { paths: ['.env'] });
    assert.equal(await grep({ pattern: 'TOKEN', paths: '.env' }), '.env:1:TOKEN=abc');
  });
});
