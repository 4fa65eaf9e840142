import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { commandPattern, pathPattern, suggestPattern } from './suggestedPattern';

describe('suggestPattern', () => {
  test('bash: the command and its subcommand, then *', () => {
    assert.equal(commandPattern('npm test -- --watch'), 'npm test *');
    assert.equal(commandPattern('git commit -m "x"'), 'git commit *');
    assert.equal(commandPattern('ls -la src'), 'ls *');
    assert.equal(commandPattern('cat foo.txt'), 'cat *');
    assert.equal(commandPattern('  cargo   build  --release '), 'cargo build *');
  });

  test('bash: the pattern always leaves a word for * to cover (the core rejects a pattern that misses the target)', () => {
    assert.equal(commandPattern('npm test'), 'npm *');
    assert.equal(commandPattern('make'), 'make');
    assert.equal(commandPattern('   '), undefined);
  });

  test('file tools: the parent directory plus /**, the path itself at the root', () => {
    assert.equal(pathPattern('src/lib/util.ts'), 'src/lib/**');
    assert.equal(pathPattern('./src/a.ts'), 'src/**');
    assert.equal(pathPattern('src\\win\\a.ts'), 'src/win/**');
    assert.equal(pathPattern('README.md'), 'README.md');
    assert.equal(pathPattern('../outside.txt'), undefined);
    assert.equal(pathPattern('/etc/hosts'), undefined);
  });

  test('from a tool call’s raw JSON arguments', () => {
    assert.equal(suggestPattern('bash', '{"command":"npm run lint -- --fix","timeout":60}'), 'npm run *');
    assert.equal(suggestPattern('write_file', '{"path":"docs/guide/intro.md","content":"…"}'), 'docs/guide/**');
    assert.equal(suggestPattern('delete', '{"path":"tmp/x"}'), 'tmp/**');
    assert.equal(suggestPattern('write_file', '{"path":"docs/gu'), undefined, 'truncated preview JSON');
    assert.equal(suggestPattern('todo_write', '{"todos":[]}'), undefined);
  });
});
