import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedRequest, ScriptedModelServer } from '../../support/scriptedModelServer';
import { coreEnvFolderSettings, editArgs, toolCallTurn, toolResultSent } from './approvals';
import { proposalTitlePattern } from './diffEditor';
import { environmentOf } from './processTree';

function serverWith(requests: RecordedRequest[]): ScriptedModelServer {
  return {
    url: 'http://127.0.0.1:1/v1',
    requests,
    enqueue: () => undefined,
    setModels: () => undefined,
    pending: 0,
    close: async () => undefined,
  };
}

const post = (path: string, body: unknown): RecordedRequest => ({ method: 'POST', path, headers: {}, body });

describe('approval e2e helpers', () => {
  it('matches proposal tab titles, new files included, and nothing else', () => {
    const pattern = proposalTitlePattern('src/a.ts');
    assert.ok(pattern.test('src/a.ts ↔ Catalyst proposal'));
    assert.ok(pattern.test('src/a.ts (new file) ↔ Catalyst proposal'));
    assert.ok(!pattern.test('src/a.ts'));
    assert.ok(!proposalTitlePattern('a.ts').test('axts ↔ Catalyst proposal'), 'the path is matched literally');
  });

  it('finds the tool result sent for a call id, newest request first, in both dialects', () => {
    const openai = post('/v1/chat/completions', {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_1', content: 'old result' },
      ],
    });
    const newer = post('/v1/chat/completions', {
      messages: [{ role: 'tool', tool_call_id: 'call_1', content: "tool call 'edit' was denied by the user" }],
    });
    const anthropic = post('/v1/messages', {
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'applied 1 edit' }] }] },
      ],
    });
    const server = serverWith([openai, newer, anthropic, { method: 'GET', path: '/v1/models', headers: {}, body: undefined }]);
    assert.equal(toolResultSent(server, 'call_1'), "tool call 'edit' was denied by the user");
    assert.equal(toolResultSent(server, 'toolu_2'), 'applied 1 edit');
    assert.equal(toolResultSent(server, 'call_missing'), undefined);
  });

  it('scripts a tool call and builds edit arguments', () => {
    assert.deepEqual(editArgs('a.txt', ['x', 'y']), { path: 'a.txt', edits: [{ search: 'x', replace: 'y' }] });
    assert.deepEqual(toolCallTurn('c1', 'bash', { command: 'true' }, 'Running it'), {
      steps: [{ text: 'Running it' }, { toolCall: { id: 'c1', name: 'bash', arguments: { command: 'true' } } }],
    });
  });

  it('puts catalystCode.core.env into the workspace folder settings', () => {
    const files = coreEnvFolderSettings({ A: '1' });
    assert.deepEqual(JSON.parse(files['.vscode/settings.json']), { 'catalystCode.core.env': { A: '1' } });
  });

  it('reads a process environment from /proc', () => {
    assert.equal(environmentOf(process.pid)?.PATH, process.env.PATH);
    assert.equal(environmentOf(2 ** 30), undefined);
  });
});
