import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlToText, isHtml } from './htmlText';

describe('htmlToText', () => {
  test('drops scripts, styles and the head; keeps the text with entities decoded', () => {
    const html =
      '<html><head><title>T</title><style>body{color:red}</style></head><body><script>alert(1)</script>' +
      '<h1>Title</h1><p>Hi &amp; bye &lt;3</p><noscript>enable js</noscript><SCRIPT type="x">evil()</SCRIPT></body></html>';
    assert.equal(htmlToText(html), '# Title\n\nHi & bye <3');
  });

  test('lists, nested lists, links resolved against the page, pre, tables and breaks', () => {
    const html =
      '<p>Use <a href="/std/vec">Vec</a>, <a href="#top">top</a> or <a href="javascript:x()">js</a>.</p>' +
      '<ul><li>one</li><li>two<ol start="3"><li>a</li><li>b</li></ol></li></ul>' +
      '<pre>  keep\n    this</pre><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>line<br>next';
    assert.equal(
      htmlToText(html, 'https://doc.rust-lang.org/book/'),
      'Use [Vec](https://doc.rust-lang.org/std/vec), top or js.\n\n- one\n- two\n  3. a\n  4. b\n\n  keep\n    this\n\nA | B\n1 | 2\n\nline\nnext',
    );
  });

  test('malformed markup and an unclosed script still give text, never the script', () => {
    assert.equal(htmlToText('<div><p>open <b>bold<p>next</div>'), 'open bold\n\nnext');
    assert.equal(htmlToText('<p>before</p><script>never shown'), 'before');
  });

  test("upstream's HTML content types", () => {
    assert.ok(isHtml('text/html; charset=utf-8'));
    assert.ok(isHtml('application/xhtml+xml'));
    assert.ok(!isHtml('text/plain'));
    assert.ok(!isHtml('application/json'));
  });
});
