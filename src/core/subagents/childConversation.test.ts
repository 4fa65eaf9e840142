import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { makeTestWorkspace, type TestWorkspace } from '../../../test/support/testWorkspace';
import type { AgentDefinition } from '../agents/types';
import type { ChatMessage } from '../providers/types';
import { FORK_HEADER, FORK_MESSAGES, READ_BYTES, childMessages, childSystemPrompt } from './childConversation';

const KEY = 'sk-live-FORKMARKER-0123456789';

const agent = (overrides: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name: 'planner',
  description: '',
  tools: [],
  fallbackModels: [],
  thinking: 'high',
  systemPromptMode: 'replace',
  inheritProjectContext: true,
  defaultContext: 'fork',
  skills: [],
  defaultReads: [],
  disabled: false,
  source: 'builtin',
  prompt: 'Plan it.',
  ...overrides,
});

const workspaces: TestWorkspace[] = [];
afterEach(() => workspaces.splice(0).forEach((w) => w.cleanup()));

test('the system prompt: replace keeps the project context only when inherited; append always does; then the bridge', () => {
  const base = { basePrompt: 'BASE', bridge: 'BRIDGE' };
  assert.equal(childSystemPrompt({ ...base, agent: agent() }), 'BASE\n\nPlan it.\n\nBRIDGE');
  assert.equal(childSystemPrompt({ ...base, agent: agent({ inheritProjectContext: false }) }), 'Plan it.\n\nBRIDGE');
  assert.equal(
    childSystemPrompt({ basePrompt: 'BASE', agent: agent({ systemPromptMode: 'append', inheritProjectContext: false }) }),
    'BASE\n\nPlan it.',
  );
});

test("a fork reads the parent's last 40 plain messages, scrubbed, then `Task:`; tool traffic and system messages are dropped", () => {
  const ws = makeTestWorkspace();
  workspaces.push(ws);
  const parent: ChatMessage[] = [{ role: 'system', content: 'parent system' }];
  for (let i = 0; i < 50; i++) parent.push({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` });
  parent.push({
    role: 'assistant',
    content: 'calling',
    tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{}' } }],
  });
  parent.push({ role: 'tool', tool_call_id: 't1', content: 'tool output' });
  parent.push({ role: 'user', content: `my key is ${KEY}` });
  const messages = childMessages({
    agent: agent(),
    task: 'make a plan',
    context: 'fork',
    basePrompt: 'BASE',
    parentMessages: parent,
    workspace: ws.root,
    secrets: [KEY],
  });
  assert.equal(messages[0].role, 'system');
  assert.match(String(messages[1].content), new RegExp(`^${FORK_HEADER}`));
  const inherited = messages.slice(2, -1);
  assert.equal(inherited.length, FORK_MESSAGES);
  assert.equal(inherited[0].content, 'm11');
  assert.equal(inherited.at(-1)!.content, 'my key is [REDACTED]');
  assert.ok(!JSON.stringify(messages).includes('tool output') && !JSON.stringify(messages).includes('parent system'));
  assert.deepEqual(messages.at(-1), { role: 'user', content: 'Task:\nmake a plan' });
});

test('defaultReads are read confined to the workspace and capped; a fresh child reads the bare task', () => {
  const ws = makeTestWorkspace();
  workspaces.push(ws);
  ws.write('plan.md', 'the plan');
  ws.write('big.txt', 'x'.repeat(READ_BYTES + 10));
  const messages = childMessages({
    agent: agent({ defaultReads: ['plan.md', 'big.txt', '../outside.txt', 'missing.md'] }),
    task: 'go',
    context: 'fresh',
    basePrompt: 'BASE',
    parentMessages: [{ role: 'user', content: 'not inherited' }],
    workspace: ws.root,
    secrets: [],
  });
  assert.deepEqual(
    messages.map((m) => m.role),
    ['system', 'system', 'user'],
  );
  const reads = String(messages[1].content);
  assert.ok(reads.startsWith('Reference files read before your task:\n--- plan.md ---\nthe plan\n--- big.txt ---\n'));
  assert.ok(reads.includes(`${'x'.repeat(READ_BYTES)}…`) && !reads.includes('x'.repeat(READ_BYTES + 1)));
  assert.ok(reads.includes('--- ../outside.txt ---\n[skipped: path is outside the workspace]'));
  assert.ok(reads.includes('--- missing.md ---\n[skipped: unreadable]'));
  assert.deepEqual(messages.at(-1), { role: 'user', content: 'go' });
});
