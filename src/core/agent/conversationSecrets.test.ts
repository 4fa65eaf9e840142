import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SessionWriter } from '../sessions/sessionFile';
import { Conversation } from './conversation';

const KEY = 'sk-live-PERSISTMARKER-0123456789';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-conv-secrets-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('appended messages and run records are scrubbed in the file; the in-memory conversation is not', () => {
  const file = path.join(dir, 's.jsonl');
  const secrets = [KEY];
  const { conversation } = Conversation.open(file, { secrets: () => secrets });
  conversation.append({ role: 'user', content: 'what is my key?' });
  const assistant = {
    role: 'assistant' as const,
    content: `Your key is ${KEY}`,
    reasoning_content: `the user's key is ${KEY}`,
    tool_calls: [
      {
        id: 'c1',
        type: 'function' as const,
        function: { name: 'write_file', arguments: JSON.stringify({ path: 'k.txt', content: `key=${KEY}\n` }) },
      },
    ],
  };
  conversation.append(assistant);
  conversation.append({ role: 'tool', tool_call_id: 'c1', content: `wrote k.txt:\n+key=${KEY}` });
  conversation.recordRun({
    session_id: 's',
    run_id: 'r',
    kind: 'turn',
    state: 'failed',
    timestamp_ms: 1,
    detail: `auth failed for ${KEY}`,
  });
  conversation.sync();

  const text = fs.readFileSync(file, 'utf8');
  assert.ok(!text.includes(KEY), text);
  assert.equal(text.match(/\[REDACTED\]/g)?.length, 5);
  assert.equal(conversation.all[1].content, `Your key is ${KEY}`, 'the model keeps its own context');
  assert.equal(assistant.content, `Your key is ${KEY}`, 'the appended object is not mutated');
  conversation.close();

  const reopened = Conversation.open(file, { secrets: () => secrets }).conversation;
  assert.equal(reopened.all[1].content, 'Your key is [REDACTED]');
  assert.equal(
    JSON.parse(reopened.all[1].tool_calls![0].function.arguments).content,
    'key=[REDACTED]\n',
    'tool-call arguments stay valid JSON',
  );
  assert.equal(reopened.runRecords[0].detail, 'auth failed for [REDACTED]');
  reopened.close();
});

test('a rewrite (reset, undo, compact) is scrubbed too, with the secrets known at that moment', () => {
  const file = path.join(dir, 's.jsonl');
  let secrets: string[] = [];
  const { conversation } = Conversation.open(file, { secrets: () => secrets });
  conversation.append({ role: 'assistant', content: `before the key was set: ${KEY}` });
  assert.ok(fs.readFileSync(file, 'utf8').includes(KEY), 'a secret not known yet cannot be scrubbed');
  secrets = [KEY];
  conversation.replace([...conversation.all, { role: 'user', content: [{ type: 'text', text: `here: ${KEY}` }] }]);
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(!text.includes(KEY), text);
  assert.equal(text.match(/\[REDACTED\]/g)?.length, 2);
  conversation.close();
});

test('without secrets (or without the option) lines are written exactly as before', () => {
  const file = path.join(dir, 's.jsonl');
  const w = new SessionWriter(file);
  w.appendMessage({ role: 'user', content: KEY });
  w.close();
  const other = path.join(dir, 't.jsonl');
  const { conversation } = Conversation.open(other, { secrets: () => [] });
  conversation.append({ role: 'user', content: KEY });
  conversation.close();
  assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(other, 'utf8'));
});
