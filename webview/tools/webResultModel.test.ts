import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchedUrl, parseFetchOutput, parseSearchOutput } from './webResultModel';

describe('web result model', () => {
  test("fetch's header line, notes and text; anything else is not a fetch result", () => {
    assert.deepEqual(parseFetchOutput('HTTP 302 Found  \n...[redirect to x not followed: no]...\n'), {
      status: '302 Found',
      contentType: '',
      notes: ['redirect to x not followed: no'],
      text: '',
    });
    assert.equal(parseFetchOutput("fetch: host 'x' is not in the allowlist"), undefined);
    assert.equal(fetchedUrl('{"url":"https://a.example/"}'), 'https://a.example/');
    assert.equal(fetchedUrl('{"url":"file:///etc/passwd"}'), undefined);
    assert.equal(fetchedUrl('{"url":"https://a.ex'), undefined, 'still streaming');
  });

  test("web_search's header and hits, upstream's usage note included; a non-http URL is never a link", () => {
    const parsed = parseSearchOutput(
      'Search: q  (Tavily API, 2 hit(s) · 43/1000 this month)\n\n1. T\n   https://t.example/\n   S\n\n2. U\n   javascript:alert(1)\n   \n\n',
    );
    assert.equal(parsed?.query, 'q');
    assert.equal(parsed?.backend, 'Tavily API');
    assert.deepEqual(parsed?.hits, [
      { title: 'T', rawUrl: 'https://t.example/', url: 'https://t.example/', snippet: 'S' },
      { title: 'U', rawUrl: 'javascript:alert(1)', url: undefined, snippet: '' },
    ]);
    assert.equal(parseSearchOutput('web_search: all backends failed; …'), undefined);
  });
});
