import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFrontmatter } from './frontmatter';

describe('parseFrontmatter', () => {
  test('reads flat key: value lines, strips one pair of quotes, and keeps the trimmed body', () => {
    const { fields, body } = parseFrontmatter(
      '---\r\nname: "scout"\r\ndescription: \'Finds: things\'\r\n# a comment\r\n\r\ntools:\r\n  - read\r\nurl: http://x:1\r\n---\r\n\r\nThe prompt.\r\nLine two.\r\n\r\n',
    );
    assert.deepEqual(Object.fromEntries(fields), { name: 'scout', description: 'Finds: things', tools: '', url: 'http://x:1' });
    assert.equal(body, 'The prompt.\nLine two.');
  });

  test('without an opening fence there is no frontmatter, and an empty block is none either', () => {
    assert.deepEqual(parseFrontmatter('name: x\nbody').fields.size, 0);
    assert.equal(parseFrontmatter('  just a body \n').body, 'just a body');
    assert.equal(parseFrontmatter('---\n---\nbody').fields.size, 0);
  });

  test('the closing fence is the first line starting with ---', () => {
    const { fields, body } = parseFrontmatter('---\nname: a\n---\nbody\n---\nmore');
    assert.equal(fields.get('name'), 'a');
    assert.equal(body, 'body\n---\nmore');
  });
});
