// The manifest (package.json `contributes`) and the code name the same commands. The code side is complete by type:
// each registering function's handler table is HandlersFor<its id table>, so an id without a handler does not compile.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKPOINT_COMMANDS } from './checkpoints/checkpointIds';
import { CORE_CONTEXT_KEYS } from '../client/presentation/coreContextValues';
import { COMMANDS, CONTEXT_KEYS, GOAL_COMMANDS } from './ids';
import { REVIEW_COMMANDS } from './review/reviewIds';
import { PLUGIN_COMMANDS, PLUGIN_ITEM_CONTEXT, PLUGINS_VIEW_ID } from './plugins/pluginIds';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    keybindings: { command: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as Manifest;
const registered = [
  ...Object.values(COMMANDS),
  ...Object.values(REVIEW_COMMANDS),
  ...Object.values(CHECKPOINT_COMMANDS),
  ...Object.values(GOAL_COMMANDS),
  ...Object.values(PLUGIN_COMMANDS),
];
const contributed = manifest.contributes.commands.map((c) => c.command);

describe('manifest commands', () => {
  test('every registered command is contributed, and every contributed one is registered', () => {
    assert.deepEqual([...contributed].sort(), [...registered].sort());
  });

  test('no id is registered twice', () => {
    assert.equal(new Set(registered).size, registered.length);
  });

  test('every menu entry and keybinding names a contributed command', () => {
    const known = new Set(contributed);
    const referenced = [
      ...Object.entries(manifest.contributes.menus).flatMap(([menu, items]) => items.map((i) => `${menu}: ${i.command}`)),
      ...manifest.contributes.keybindings.map((k) => `keybinding: ${k.command}`),
    ];
    assert.ok(referenced.length > 0);
    assert.deepEqual(
      referenced.filter((r) => !known.has(r.slice(r.indexOf(': ') + 2))),
      [],
    );
  });

  test('every command is in the palette category "Catalyst" with a title', () => {
    assert.deepEqual(
      manifest.contributes.commands.filter((c) => c.category !== 'Catalyst' || !c.title.trim()).map((c) => c.command),
      [],
    );
  });

  test('Run Subagent… is in the palette only for a core with subagents (never SCV)', () => {
    const entry = manifest.contributes.menus.commandPalette.find((i) => i.command === COMMANDS.runSubagent);
    assert.equal(entry?.when, CORE_CONTEXT_KEYS.canRunSubagents);
    assert.equal(manifest.contributes.commands.find((c) => c.command === COMMANDS.runSubagent)?.title, 'Run Subagent…');
  });

  test('Apply Skill… and Browse Skill Marketplace… are in the palette only for a core with skills (never SCV)', () => {
    for (const [id, title] of [
      [COMMANDS.applySkill, 'Apply Skill…'],
      [COMMANDS.browseSkillMarketplace, 'Browse Skill Marketplace…'],
    ]) {
      assert.equal(manifest.contributes.menus.commandPalette.find((i) => i.command === id)?.when, CORE_CONTEXT_KEYS.canUseSkills);
      assert.equal(manifest.contributes.commands.find((c) => c.command === id)?.title, title);
    }
  });

  test('goal mode: Start Goal… and the Control Center for a core with goals (never SCV); Cancel Goal only while one is active', () => {
    const palette = (id: string) => manifest.contributes.menus.commandPalette.find((i) => i.command === id)?.when;
    assert.equal(palette(GOAL_COMMANDS.startGoal), CORE_CONTEXT_KEYS.canUseGoals);
    assert.equal(palette(GOAL_COMMANDS.openControlCenter), CORE_CONTEXT_KEYS.canUseGoals);
    assert.equal(palette(GOAL_COMMANDS.cancelGoal), CONTEXT_KEYS.goalActive);
    const cancel = manifest.contributes.commands.find((c) => c.command === GOAL_COMMANDS.cancelGoal) as { enablement?: string } | undefined;
    assert.equal(cancel?.enablement, CONTEXT_KEYS.goalActive);
    assert.equal(manifest.contributes.commands.find((c) => c.command === GOAL_COMMANDS.startGoal)?.title, 'Start Goal…');
  });

  test('the Plugins view: in the Catalyst container (never for SCV), Enable on a disabled plugin, Disable on an enabled one', () => {
    const views = (manifest.contributes as unknown as { views: Record<string, { id: string; when?: string }[]> }).views;
    assert.equal(views.catalystCode.find((v) => v.id === PLUGINS_VIEW_ID)?.when, 'catalystCode.core.kind != scv');
    const item = (id: string) => manifest.contributes.menus['view/item/context'].find((i) => i.command === id)?.when;
    assert.equal(item(PLUGIN_COMMANDS.enable), `view == ${PLUGINS_VIEW_ID} && viewItem == ${PLUGIN_ITEM_CONTEXT.disabled}`);
    assert.equal(item(PLUGIN_COMMANDS.disable), `view == ${PLUGINS_VIEW_ID} && viewItem == ${PLUGIN_ITEM_CONTEXT.enabled}`);
    const title = manifest.contributes.menus['view/title'].filter((i) => i.when === `view == ${PLUGINS_VIEW_ID}`).map((i) => i.command);
    assert.deepEqual(title, [PLUGIN_COMMANDS.install, PLUGIN_COMMANDS.reload, PLUGIN_COMMANDS.manageTrust]);
  });
});
