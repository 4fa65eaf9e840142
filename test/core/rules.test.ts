// Project rules over stdio: the files a repository carries for coding agents reach the system prompt of the first model
// request, in the documented order and within the caps; the `rules` event lists them; `context` counts their tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScenario, type Scenario } from '../support/coreScenario';

const say = (text: string) => ({ steps: [{ text }] });
const chatRequests = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
const systemPromptOf = (request: { body: any }): string => {
  const first = request.body.messages[0];
  assert.equal(first.role, 'system');
  return first.content;
};

/** Runs a first turn and returns the system prompt its request carried. */
async function firstTurnPrompt(s: Scenario): Promise<string> {
  await s.turn('hello');
  return systemPromptOf(chatRequests(s)[0]);
}

const NESTED = {
  'AGENTS.md': 'ROOT-AGENTS: run npm test before you finish.',
  'packages/api/AGENTS.md': 'API-AGENTS: handlers live in src/routes.',
  'packages/api/src/deep/AGENTS.md': 'DEEP-AGENTS: no default exports here.',
  'CLAUDE.md': 'CLAUDE-RULES: prefer small commits.',
  '.github/copilot-instructions.md': 'COPILOT-RULES: TypeScript strict.',
  '.clinerules/style.md': 'CLINE-RULES: two-space indent.',
  '.cursorrules': 'CURSOR-RULES: no semicolons.',
  'node_modules/dep/AGENTS.md': 'DEPENDENCY-AGENTS',
};

test('nested rules files reach the first request in the documented order; the rules event lists them; context counts them', async () => {
  const s = await startScenario({ files: NESTED, script: [say('ok')] });
  try {
    const announced = await s.core.waitForType('rules');
    assert.deepEqual(
      announced.files.map((f: any) => [f.path, f.source, f.scope, f.truncated]),
      [
        ['AGENTS.md', 'agents_md', '.', false],
        ['packages/api/AGENTS.md', 'agents_md', 'packages/api', false],
        ['packages/api/src/deep/AGENTS.md', 'agents_md', 'packages/api/src/deep', false],
        ['CLAUDE.md', 'claude_md', '.', false],
        ['.github/copilot-instructions.md', 'copilot_instructions', '.', false],
        ['.clinerules/style.md', 'clinerules', '.', false],
        ['.cursorrules', 'cursorrules', '.', false],
      ],
    );
    assert.equal(announced.files[0].bytes, Buffer.byteLength(NESTED['AGENTS.md']));
    assert.ok(announced.files.every((f: any) => f.tokens > 0));
    assert.deepEqual(announced.disabled, []);
    assert.ok(s.core.ofType('protocol_hello')[0].capabilities.includes('project_rules'));

    const prompt = await firstTurnPrompt(s);
    const order = ['ROOT-AGENTS', 'API-AGENTS', 'DEEP-AGENTS', 'CLAUDE-RULES', 'COPILOT-RULES', 'CLINE-RULES', 'CURSOR-RULES'];
    const positions = order.map((marker) => prompt.indexOf(marker));
    assert.ok(
      positions.every((p) => p > 0),
      `every file is in the prompt: ${positions}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      'in precedence order',
    );
    assert.ok(prompt.includes('## packages/api/AGENTS.md (applies to packages/api/)'), 'a nested file is labelled with its folder');
    assert.ok(!prompt.includes('DEPENDENCY-AGENTS'), 'node_modules is not walked');

    const from = s.core.events.length;
    s.core.send({ type: 'context' });
    const context = await s.core.waitForType('context_breakdown', { from });
    const total = announced.files.reduce((sum: number, f: any) => sum + f.tokens, 0);
    assert.ok(context.rules_tokens >= total, `rules_tokens ${context.rules_tokens} counts the files' ${total}`);
    assert.ok(context.system_tokens > context.rules_tokens);
  } finally {
    await s.close();
  }
});

test('a source turned off in the config or the environment is absent from the prompt and named as disabled', async () => {
  const s = await startScenario({
    files: NESTED,
    config: { project_rules: { claude_md: false } },
    env: { CATALYST_CODE_RULES_OFF: 'cursorrules' },
    script: [say('ok')],
  });
  try {
    const announced = await s.core.waitForType('rules');
    assert.deepEqual(announced.disabled, ['claude_md', 'cursorrules']);
    assert.ok(!announced.files.some((f: any) => f.source === 'claude_md' || f.source === 'cursorrules'));
    const prompt = await firstTurnPrompt(s);
    assert.ok(prompt.includes('ROOT-AGENTS') && prompt.includes('CLINE-RULES'));
    assert.ok(!prompt.includes('CLAUDE-RULES') && !prompt.includes('CURSOR-RULES'));
  } finally {
    await s.close();
  }
});

test("a repository's settings.json cannot turn back on a source the user turned off (it may turn others off)", async () => {
  const s = await startScenario({
    files: {
      ...NESTED,
      'settings.json': JSON.stringify({ project_rules: { enabled: true, claude_md: true, copilot_instructions: false } }),
    },
    config: { project_rules: { claude_md: false } },
    script: [say('ok')],
  });
  try {
    const announced = await s.core.waitForType('rules');
    assert.deepEqual(announced.disabled, ['claude_md', 'copilot_instructions']);
    const warning = s.core.events.find((e) => e.type === 'info' && /may only turn rules sources off/.test(e.message));
    assert.ok(warning, 'the refused keys are reported');
    const prompt = await firstTurnPrompt(s);
    assert.ok(!prompt.includes('CLAUDE-RULES') && !prompt.includes('COPILOT-RULES'));
  } finally {
    await s.close();
  }
});

test('a file over the cap is cut with a visible marker, and the total cap leaves later files out with one', async () => {
  const big = 'BIG-START ' + 'x'.repeat(3000) + ' BIG-END';
  const s = await startScenario({
    files: { 'AGENTS.md': big, 'CLAUDE.md': 'CLAUDE-RULES' },
    config: { project_rules: { max_file_bytes: 1000, max_total_bytes: 1000 } },
    script: [say('ok')],
  });
  try {
    const announced = await s.core.waitForType('rules');
    assert.deepEqual(
      announced.files.map((f: any) => [f.path, f.bytes, f.truncated]),
      [
        ['AGENTS.md', big.length, true],
        ['CLAUDE.md', 12, true],
      ],
    );
    const prompt = await firstTurnPrompt(s);
    assert.ok(prompt.includes('BIG-START') && !prompt.includes('BIG-END'));
    assert.ok(prompt.includes(`[… truncated by Catalyst Code: AGENTS.md is ${big.length} bytes, only the first 1000 are shown`));
    assert.ok(prompt.includes('[left out by Catalyst Code: the project rules reached their total cap'));
    assert.ok(!prompt.includes('CLAUDE-RULES'));
  } finally {
    await s.close();
  }
});

test('a rules file edited between turns is in the next request, announced by a new rules event before it', async () => {
  const s = await startScenario({ files: { 'AGENTS.md': 'FIRST' }, script: [say('one'), say('two')] });
  try {
    await s.core.waitForType('rules');
    await s.turn('first');
    assert.ok(systemPromptOf(chatRequests(s)[0]).includes('FIRST'));
    const from = s.core.events.length;
    writeFileSync(join(s.core.workspace, 'AGENTS.md'), 'FIRST, edited');
    s.core.send({ type: 'send', prompt: 'second', model: 'test-model' });
    const announced = await s.core.waitForType('rules', { from });
    await s.core.waitForType('done', { from });
    assert.equal(announced.files[0].bytes, 'FIRST, edited'.length);
    assert.ok(systemPromptOf(chatRequests(s)[1]).includes('FIRST, edited'));
  } finally {
    await s.close();
  }
});

test('a turn sent with init, while the first walk of a big tree still runs, waits for it: its request carries the rules', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'core-ws-'));
  for (let i = 0; i < 3000; i++) mkdirSync(join(workspace, `pkg${i}`, 'src'), { recursive: true });
  const s = await startScenario({ workspace, files: { 'AGENTS.md': 'ROOT-AGENTS' }, handshake: false, script: [say('ok')] });
  try {
    const init = { type: 'init', protocol_version: 2, client: { name: 'test', version: '0.0.0', capabilities: ['project_rules'] } };
    s.core.sendRaw(`${JSON.stringify(init)}\n${JSON.stringify({ type: 'send', prompt: 'hello', model: 'test-model' })}\n`);
    await s.core.waitForType('done');
    // The walk's rules event may come after the turn's done (it is unsolicited); a second one, from the turn's re-read,
    // would have come before done.
    await s.core.waitForType('rules');
    assert.ok(systemPromptOf(chatRequests(s)[0]).includes('ROOT-AGENTS'));
    assert.deepEqual(
      s.core.ofType('rules').map((e) => e.files.map((f: any) => f.path)),
      [['AGENTS.md']],
      'one rules event: the turn found nothing new',
    );
  } finally {
    await s.close();
  }
});
