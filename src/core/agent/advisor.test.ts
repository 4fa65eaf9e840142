import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAdvice, reviewReply } from './advisor';
import type { RunEvent } from '../runtime/eventSink';
import type { ChatMessage, StreamRequest } from '../providers/types';

describe('parseAdvice', () => {
  test('a severity line and its recommendation', () => {
    assert.deepEqual(parseAdvice('SEVERITY: blocker\nThe migration drops the users table.'), {
      severity: 'blocker',
      message: 'The migration drops the users table.',
    });
    assert.deepEqual(parseAdvice('**Severity:** Concern - check the error path.'), {
      severity: 'concern',
      message: 'check the error path.',
    });
  });

  test('NONE, empty, too short: no note; no severity line is a nit', () => {
    assert.equal(parseAdvice('NONE'), undefined);
    assert.equal(parseAdvice('none.'), undefined);
    assert.equal(parseAdvice('  '), undefined);
    assert.equal(parseAdvice('SEVERITY: nit\nok'), undefined);
    assert.equal(parseAdvice('SEVERITY: nit\nNONE'), undefined);
    assert.deepEqual(parseAdvice('Name the magic number.'), { severity: 'nit', message: 'Name the magic number.' });
    assert.equal(parseAdvice(`SEVERITY: nit\n${'x'.repeat(3000)}`)?.message.length, 1500);
  });
});

describe('reviewReply', () => {
  const provider = { name: 'p', kind: 'openai' as const, baseUrl: 'http://127.0.0.1:1', headers: {} };

  async function review(messages: ChatMessage[], reply: string, secrets: string[] = []) {
    const events: RunEvent[] = [];
    const appended: ChatMessage[] = [];
    const requests: StreamRequest[] = [];
    await reviewReply({
      settings: { enabled: true },
      model: 'm',
      provider,
      messages,
      append: (m) => appended.push(m),
      emit: (e) => events.push(e),
      signal: new AbortController().signal,
      idleTimeoutMs: 1000,
      secrets,
      stream: async (req) => {
        requests.push(req);
        return { text: reply, reasoning: '', toolCalls: [], usage: undefined, finishReason: 'stop' } as never;
      },
    });
    return { events, appended, requests };
  }

  test('the transcript: the last messages, tool output omitted, earlier advisories dropped, secrets scrubbed', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'deploy with key sk-live-0123456789abcdef' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{"command":"make"}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'a very long build log' },
      { role: 'system', content: '<advisory advisor="default" severity="nit" scope="main">old</advisory>' },
      { role: 'assistant', content: 'Deployed.' },
    ];
    const { requests } = await review(messages, 'NONE', ['sk-live-0123456789abcdef']);
    const text = String(requests[0].messages[1].content);
    assert.ok(text.includes('assistant: [calls bash {"command":"make"}]'));
    assert.ok(text.includes('tool: [tool result omitted]') && !text.includes('build log'));
    assert.ok(!text.includes('<advisory') && !text.includes('sk-live-0123456789abcdef'));
    assert.ok(text.includes('assistant: Deployed.'));
  });

  test('an exact repeat of an advisory already given is dropped', async () => {
    const given = '<advisory advisor="default" severity="concern" scope="main">Run the tests first.</advisory>';
    const { events, appended } = await review(
      [
        { role: 'system', content: given },
        { role: 'assistant', content: 'Done.' },
      ],
      'SEVERITY: concern\nRun the tests first.',
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['advisor_status'],
    );
    assert.deepEqual(appended, []);
  });
});
