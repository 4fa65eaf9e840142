import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyProjectRulesLayer, applyRulesOffVariable, defaultProjectRulesSettings } from './rulesSettings';

const sorted = (s: ReadonlySet<string>) => [...s].sort();

describe('project_rules settings', () => {
  test('a user file turns sources off and on and sets the caps', () => {
    const warnings: string[] = [];
    let s = applyProjectRulesLayer(defaultProjectRulesSettings(), { enabled: false, agents_md: true, max_file_bytes: 99999 }, true, (m) =>
      warnings.push(m),
    );
    assert.deepEqual(sorted(s.enabled), ['agents_md']);
    assert.equal(s.maxFileBytes, 99999);
    s = applyProjectRulesLayer(s, { cursorrules: true }, true, (m) => warnings.push(m));
    assert.deepEqual(sorted(s.enabled), ['agents_md', 'cursorrules']);
    assert.deepEqual(warnings, []);
  });

  test("a repository's file may turn sources off and lower caps, never turn one back on or raise a cap", () => {
    const warnings: string[] = [];
    const user = applyProjectRulesLayer(defaultProjectRulesSettings(), { claude_md: false, max_total_bytes: 1000 }, true, () => {});
    const s = applyProjectRulesLayer(user, { claude_md: true, cursorrules: false, max_total_bytes: 5000, max_file_bytes: 10 }, false, (m) =>
      warnings.push(m),
    );
    assert.deepEqual(sorted(s.enabled), [
      'agents_md',
      'clinerules',
      'copilot_instructions',
      'copilot_path_instructions',
      'cursor_project_rules',
    ]);
    assert.equal(s.maxTotalBytes, 1000);
    assert.equal(s.maxFileBytes, 10);
    assert.deepEqual(warnings, [
      'a project file may only turn rules sources off or lower their caps; ignored project_rules.claude_md, project_rules.max_total_bytes',
    ]);
  });

  test('bad values warn and change nothing', () => {
    const warnings: string[] = [];
    const d = defaultProjectRulesSettings();
    assert.deepEqual(
      applyProjectRulesLayer(d, 'off', true, (m) => warnings.push(m)),
      d,
    );
    const s = applyProjectRulesLayer(d, { agents_md: 'no', max_file_bytes: 0 }, true, (m) => warnings.push(m));
    assert.deepEqual(sorted(s.enabled), sorted(d.enabled));
    assert.equal(s.maxFileBytes, d.maxFileBytes);
    assert.equal(warnings.length, 3);
  });

  test('CATALYST_CODE_RULES_OFF only turns sources off', () => {
    const warnings: string[] = [];
    const d = defaultProjectRulesSettings();
    assert.deepEqual(
      sorted(applyRulesOffVariable(d, 'claude_md, cursorrules,cursor_project_rules,bogus', (m) => warnings.push(m)).enabled),
      ['agents_md', 'clinerules', 'copilot_instructions', 'copilot_path_instructions'],
    );
    assert.deepEqual(sorted(applyRulesOffVariable(d, 'all', () => {}).enabled), []);
    assert.equal(
      applyRulesOffVariable(d, '', () => {}),
      d,
    );
    assert.deepEqual(warnings, ["CATALYST_CODE_RULES_OFF: unknown rules source 'bogus'; ignored"]);
  });
});
