import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpState, mcpStatePath } from './mcpState';

describe('McpState', () => {
  let root: string;
  let configDir: string;
  let ws: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catalyst-mcp-state-')));
    configDir = path.join(root, 'config'); // does not exist yet: the first write creates it
    ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('everything is on and undecided when nothing was stored; reading creates no file', () => {
    const state = new McpState(configDir, ws);
    assert.equal(state.isServerEnabled('gh'), true);
    assert.equal(state.isToolEnabled('gh', 'create_issue'), true);
    assert.equal(state.trustDecision('gh', 'n1'), undefined);
    assert.equal(fs.existsSync(configDir), false);
  });

  test('toggles and trust stick across restarts: write, new instance, read', () => {
    const first = new McpState(configDir, ws);
    first.setEnabled('gh', undefined, false);
    first.setEnabled('fs', 'write_file', false);
    first.setEnabled('fs', 'move_file', false);
    first.decideTrust('fs', 'nonce-a', 'trusted');
    first.decideTrust('evil', 'nonce-e', 'distrusted');

    const second = new McpState(configDir, ws);
    assert.equal(second.isServerEnabled('gh'), false);
    assert.equal(second.isServerEnabled('fs'), true);
    assert.equal(second.isToolEnabled('fs', 'write_file'), false);
    assert.equal(second.isToolEnabled('fs', 'move_file'), false);
    assert.equal(second.isToolEnabled('fs', 'read_file'), true);
    assert.equal(second.trustDecision('fs', 'nonce-a'), 'trusted');
    assert.equal(second.trustDecision('evil', 'nonce-e'), 'distrusted');

    second.setEnabled('gh', undefined, true);
    second.setEnabled('fs', 'write_file', true);
    const third = new McpState(configDir, ws);
    assert.equal(third.isServerEnabled('gh'), true);
    assert.equal(third.isToolEnabled('fs', 'write_file'), true);
    assert.equal(third.isToolEnabled('fs', 'move_file'), false);
    const stored = JSON.parse(fs.readFileSync(mcpStatePath(configDir), 'utf8'));
    assert.deepEqual(stored.workspaces[ws].servers.gh, undefined, 'a server back to defaults leaves no entry');
    assert.deepEqual(fs.readdirSync(configDir).sort(), ['mcp-state.json'], 'no temp or lock file left');
  });

  test('a trust decision holds for one launch configuration: a changed nonce is undecided again', () => {
    const state = new McpState(configDir, ws);
    state.decideTrust('fs', 'nonce-a', 'trusted');
    assert.equal(state.trustDecision('fs', 'nonce-b'), undefined);
    state.decideTrust('fs', 'nonce-b', 'distrusted');
    assert.equal(new McpState(configDir, ws).trustDecision('fs', 'nonce-b'), 'distrusted');
    assert.equal(new McpState(configDir, ws).trustDecision('fs', 'nonce-a'), undefined);
  });

  test('each workspace has its own state; a symlinked path is the same workspace', () => {
    const other = path.join(root, 'other');
    fs.mkdirSync(other);
    const link = path.join(root, 'link');
    fs.symlinkSync(ws, link);
    new McpState(configDir, ws).setEnabled('gh', undefined, false);
    assert.equal(new McpState(configDir, other).isServerEnabled('gh'), true);
    assert.equal(new McpState(configDir, link).isServerEnabled('gh'), false);
  });

  test('resetTrust forgets the decisions and keeps the toggles', () => {
    const state = new McpState(configDir, ws);
    state.decideTrust('fs', 'n', 'distrusted');
    state.setEnabled('fs', 'write_file', false);
    state.resetTrust();
    const again = new McpState(configDir, ws);
    assert.equal(again.trustDecision('fs', 'n'), undefined);
    assert.equal(again.isToolEnabled('fs', 'write_file'), false);
  });

  test('another core writing the same file: its change is kept by our next write, and seen after reload', () => {
    const a = new McpState(configDir, ws);
    const b = new McpState(configDir, ws);
    a.setEnabled('gh', undefined, false);
    b.setEnabled('fs', 'write_file', false);
    assert.equal(b.isServerEnabled('gh'), false, "b's write re-read a's change under the lock");
    assert.equal(a.isToolEnabled('fs', 'write_file'), true);
    a.reload();
    assert.equal(a.isToolEnabled('fs', 'write_file'), false);
  });

  test('a malformed file reads as empty and is kept as .bad before the first write', () => {
    fs.mkdirSync(configDir);
    fs.writeFileSync(mcpStatePath(configDir), '{ not json');
    const state = new McpState(configDir, ws);
    assert.equal(state.isServerEnabled('gh'), true);
    state.setEnabled('gh', undefined, false);
    assert.equal(fs.readFileSync(`${mcpStatePath(configDir)}.bad`, 'utf8'), '{ not json');
    assert.equal(new McpState(configDir, ws).isServerEnabled('gh'), false);
  });

  test('keys this version does not know are kept; ill-formed entries do not count', () => {
    fs.mkdirSync(configDir);
    fs.writeFileSync(
      mcpStatePath(configDir),
      JSON.stringify({
        future: 1,
        workspaces: { [ws]: { servers: { gh: { enabled: 'no', tools: { t: 0 }, trust: { nonce: 'n', decision: 'maybe' }, note: 'x' } } } },
      }),
    );
    const state = new McpState(configDir, ws);
    assert.equal(state.isServerEnabled('gh'), true);
    assert.equal(state.isToolEnabled('gh', 't'), true);
    assert.equal(state.trustDecision('gh', 'n'), undefined);
    state.setEnabled('gh', 'other', false);
    const stored = JSON.parse(fs.readFileSync(mcpStatePath(configDir), 'utf8'));
    assert.equal(stored.future, 1);
    assert.equal(stored.workspaces[ws].servers.gh.note, 'x');
    assert.equal(stored.workspaces[ws].servers.gh.tools.other, false);
  });
});
