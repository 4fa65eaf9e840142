import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreTools } from '../app/allTools';
import { parseAgentFile } from './agentFile';
import { builtinAgents } from './builtinAgents';
import { bridgeActive, childMaxDepth, childToolNames } from './childTools';

const agent = (tools: string, extra = '') => parseAgentFile(`---\nname: a\ntools: ${tools}\n${extra}---\n`, 'project')!;
const everything = { tools: coreTools };

test("no declared tools: the read-only default, finish included, but not upstream's `ask` (a child cannot ask the user)", () => {
  assert.deepEqual(childToolNames(agent(''), { depth: 1, maxDepth: 2, bridge: false, ...everything }), [
    'read_file',
    'list_dir',
    'grep',
    'glob',
    'todo_write',
    'todo_read',
    'finish',
    'memory',
  ]);
  assert.deepEqual(childToolNames(agent('read, ask'), { depth: 1, maxDepth: 2, bridge: true, ...everything }), [
    'read_file',
    'contact_supervisor',
    'intercom',
    'finish',
  ]);
});

test('declared tools (aliases resolved), then the bridge tools, then finish, once each', () => {
  assert.deepEqual(childToolNames(agent('read, bash, intercom'), { depth: 1, maxDepth: 2, bridge: true, ...everything }), [
    'read_file',
    'bash',
    'intercom',
    'contact_supervisor',
    'finish',
  ]);
  assert.deepEqual(childToolNames(agent('read, bash'), { depth: 1, maxDepth: 2, bridge: false, ...everything }), [
    'read_file',
    'bash',
    'finish',
  ]);
});

test('subagent and spawn only when declared and the child may still nest (depth < its max)', () => {
  const nester = agent('read, subagent, spawn');
  assert.deepEqual(childToolNames(nester, { depth: 1, maxDepth: 2, bridge: false, ...everything }), [
    'read_file',
    'subagent',
    'spawn',
    'finish',
  ]);
  assert.deepEqual(childToolNames(nester, { depth: 2, maxDepth: 2, bridge: false, ...everything }), ['read_file', 'finish']);
  assert.deepEqual(childToolNames(agent('read'), { depth: 1, maxDepth: 5, bridge: false, ...everything }), ['read_file', 'finish']);
});

test("a tool this core lacks is left out (researcher's fetch and web_search)", () => {
  const researcher = builtinAgents().find((a) => a.name === 'researcher')!;
  const lacks = (name: string) => ['fetch', 'web_search', 'intercom'].includes(name);
  const tools = {
    all: coreTools.all.filter((t) => !lacks(t.name)),
    get: (name: string) => (lacks(name) ? undefined : coreTools.get(name)),
  };
  assert.deepEqual(childToolNames(researcher, { depth: 1, maxDepth: 2, bridge: true, tools }), [
    'read_file',
    'grep',
    'glob',
    'list_dir',
    'bash',
    'write_file',
    'memory',
    'contact_supervisor',
    'finish',
  ]);
});

test("an agent's maxSubagentDepth lowers its subtree's limit, never raises it", () => {
  assert.equal(childMaxDepth(2, agent('read')), 2);
  assert.equal(childMaxDepth(2, agent('read', 'maxSubagentDepth: 1\n')), 1);
  assert.equal(childMaxDepth(2, agent('read', 'maxSubagentDepth: 5\n')), 2);
});

test('the bridge: always, forked children only, or never', () => {
  assert.deepEqual(
    (['always', 'fork-only', 'off'] as const).map((mode) => [bridgeActive(mode, 'fresh'), bridgeActive(mode, 'fork')]),
    [
      [true, true],
      [false, true],
      [false, false],
    ],
  );
});
