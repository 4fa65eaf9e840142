// pre_agent_start and pre_context (research A §7.4): before each model request of a turn, a plugin may replace or add
// to the system prompt and replace the request's messages, for that request only; a malformed answer changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenario, type Scenario } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin } from '../support/pluginFixtures';

const say = (text: string) => ({ steps: [{ text }] });
const chats = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
const systems = (body: any): string[] => body.messages.filter((m: any) => m.role === 'system').map((m: any) => m.content);
const userTexts = (body: any): string[] => body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);

function homeWithRequestHooks(): string {
  const home = tempDir('core-home-');
  writePlugin(globalPluginsDir(home), 'shaper', {
    manifest: {
      name: 'shaper',
      version: '1',
      hooks: { pre_agent_start: { script: 'start.js' }, pre_context: { script: 'context.js', pass_args: true } },
    },
    files: {
      'start.js': script("answer({ allow: true, modify: { append_system_prompt: 'Answer in French.' } });"),
      // Tags the last user message; a prompt saying "break" gets a malformed answer, which must change nothing.
      'context.js': script(
        [
          'const messages = input.args.messages;',
          'const last = messages[messages.length - 1];',
          "if (String(last.content).includes('break')) answer({ allow: true, modify: { messages: [{ role: 'wizard' }] } });",
          "else answer({ allow: true, modify: { messages: [...messages.slice(0, -1), { ...last, content: '[ctx] ' + last.content }] } });",
        ].join(' '),
      ),
    },
  });
  return home;
}

test('pre_agent_start appends a system message and pre_context rewrites the request, for that request only', async () => {
  const s = await startScenario({ home: homeWithRequestHooks(), script: [say('bonjour'), say('encore'), say('ok')] });
  try {
    await s.turn('hello');
    const [first] = chats(s);
    assert.equal(systems(first.body).length, 2);
    assert.equal(systems(first.body)[1], 'Answer in French.', 'the appended system message follows the system prompt');
    assert.deepEqual(userTexts(first.body), ['[ctx] hello']);

    await s.turn('again');
    assert.deepEqual(userTexts(chats(s)[1].body), ['hello', '[ctx] again'], 'the conversation kept the prompt as sent');
    assert.equal(systems(chats(s)[1].body).length, 2, 'the appended message is not stored either');

    await s.turn('break it');
    assert.deepEqual(userTexts(chats(s)[2].body), ['hello', 'again', 'break it'], 'malformed messages are ignored');
  } finally {
    await s.close();
  }
});

test("pre_agent_start's system_prompt replaces the system message; an oversized one is ignored", async () => {
  const home = tempDir('core-home-');
  const big = 'x'.repeat(100 * 1024 + 1);
  writePlugin(globalPluginsDir(home), 'prompter', {
    manifest: { name: 'prompter', version: '1', hooks: { pre_agent_start: { script: 'start.js' } } },
    files: { 'start.js': script(`answer({ allow: true, modify: { system_prompt: 'You are terse.', append_system_prompt: '${big}' } });`) },
  });
  const s = await startScenario({ home, script: [say('ok')] });
  try {
    await s.turn('hello');
    assert.deepEqual(systems(chats(s)[0].body), ['You are terse.']);
  } finally {
    await s.close();
  }
});
