import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRulesOff, rulesOffEnvironment, type InspectedSetting } from './rulesLaunchSettings';

const from = (settings: Record<string, InspectedSetting>) => (key: string) => settings[key];

test('every source on by default: no variable for the core', () => {
  const off = readRulesOff(from({ 'rules.enabled': { defaultValue: true }, 'rules.claudeMd': { defaultValue: true } }));
  assert.deepEqual(off, []);
  assert.deepEqual(rulesOffEnvironment(off), {});
});

test('a source turned off in any scope is off; the master switch turns all off', () => {
  const off = readRulesOff(
    from({
      'rules.claudeMd': { defaultValue: true, globalValue: false },
      'rules.cursorrules': { defaultValue: true, workspaceFolderValue: false },
    }),
  );
  assert.deepEqual(off, ['claude_md', 'cursorrules']);
  assert.deepEqual(rulesOffEnvironment(off), { CATALYST_CODE_RULES_OFF: 'claude_md,cursorrules' });
  assert.deepEqual(readRulesOff(from({ 'rules.enabled': { defaultValue: true, workspaceValue: false } })), ['all']);
  assert.deepEqual(
    readRulesOff(from({ 'rules.copilotPathInstructions': { globalValue: false }, 'rules.cursorProjectRules': { workspaceValue: false } })),
    ['copilot_path_instructions', 'cursor_project_rules'],
  );
});

test("a workspace's settings cannot turn back on a source the user turned off", () => {
  const off = readRulesOff(
    from({
      'rules.enabled': { defaultValue: true, globalValue: false, workspaceValue: true },
      'rules.agentsMd': { defaultValue: true, globalValue: false, workspaceValue: true, workspaceFolderValue: true },
    }),
  );
  assert.deepEqual(off, ['all']);
  assert.deepEqual(readRulesOff(from({ 'rules.agentsMd': { globalValue: false, workspaceFolderValue: true } })), ['agents_md']);
});
