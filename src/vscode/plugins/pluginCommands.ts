import * as vscode from 'vscode';
import type { InstallScope } from '../../protocol';
import { supports } from '../../shared/coreCapabilities';
import type { PluginView } from '../../shared/pluginState';
import { UI_CAPABILITIES } from '../../shared/sessionState';
import type { PluginAction } from '../../client/intents/pluginIntents';
import { type HandlersFor, registerReportingCommands } from '../commands';
import type { CoreManager, FolderCore } from '../coreManager';
import { PLUGIN_COMMANDS } from './pluginIds';
import type { PluginTrustPrompt } from './pluginTrustPrompt';
import type { PluginNode } from './pluginsTree';

export interface PluginCommandDeps {
  cores: CoreManager;
  trust: PluginTrustPrompt;
  log: vscode.LogOutputChannel;
}

type ScopePick = vscode.QuickPickItem & { scope: InstallScope };

/** The Plugins view's title and item actions (also in the palette: an item action then asks which plugin). */
export function registerPluginCommands(d: PluginCommandDeps): vscode.Disposable[] {
  const act = (action: PluginAction) => async (node?: PluginNode) => {
    const core = pluginCore(d.cores);
    if (!core) return;
    const plugin = node?.kind === 'plugin' ? node.plugin : await pickPlugin(core, action);
    if (!plugin) return;
    if (action === 'remove' && !(await confirmRemove(plugin))) return;
    core.session.pluginAction(action, plugin.name);
  };
  const handlers: HandlersFor<typeof PLUGIN_COMMANDS> = {
    [PLUGIN_COMMANDS.install]: async () => {
      const core = pluginCore(d.cores);
      if (core) await installFlow(core);
    },
    [PLUGIN_COMMANDS.reload]: () => void pluginCore(d.cores)?.session.reloadPlugins(),
    [PLUGIN_COMMANDS.manageTrust]: () => {
      const core = pluginCore(d.cores);
      if (core) d.trust.manage(core);
    },
    [PLUGIN_COMMANDS.enable]: act('enable'),
    [PLUGIN_COMMANDS.disable]: act('disable'),
    [PLUGIN_COMMANDS.remove]: act('remove'),
  };
  return registerReportingCommands(handlers, d.log);
}

/** The active core, when it has plugins; otherwise the user is told why nothing happens. */
function pluginCore(cores: CoreManager): FolderCore | undefined {
  const core = cores.ensureActive();
  if (!core) {
    void vscode.window.showInformationMessage('Catalyst Code: open a folder first; plugins work inside a workspace folder.');
    return undefined;
  }
  if (!supports(core.session.state, UI_CAPABILITIES.plugins)) {
    void vscode.window.showInformationMessage(
      `Catalyst Code: ${core.session.state.core.kind === 'scv' ? 'an SCV server' : 'this core'} has no plugins.`,
    );
    return undefined;
  }
  return core;
}

/** A folder with a plugin.json, then where it goes: this workspace (trusted, since the user installs it) or every workspace. */
async function installFlow(core: FolderCore): Promise<void> {
  const folders = await vscode.window.showOpenDialog({
    title: 'Catalyst Code: Install Plugin from Folder',
    openLabel: 'Install Plugin',
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
  });
  const folder = folders?.[0];
  if (!folder) return;
  const picked = await vscode.window.showQuickPick<ScopePick>(
    [
      { label: 'All workspaces', description: '~/.catalyst-code/plugins', scope: 'global' },
      { label: `This workspace (${core.folder.name})`, description: '.catalyst-code/plugins', scope: 'workspace' },
    ],
    { title: 'Catalyst Code: Install Plugin', placeHolder: 'Where should the plugin load?', ignoreFocusOut: true },
  );
  if (picked) core.session.installPlugin(folder.fsPath, picked.scope);
}

async function pickPlugin(core: FolderCore, action: PluginAction): Promise<PluginView | undefined> {
  const list = (core.session.state.plugins?.list ?? []).filter((p) =>
    action === 'enable' ? !p.enabled : action === 'disable' ? p.enabled : true,
  );
  if (list.length === 0) {
    void vscode.window.showInformationMessage(`Catalyst Code: no plugin to ${action}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    list.map((p) => ({ label: p.name, description: `${p.version} · ${p.scope}`, detail: p.description || undefined, plugin: p })),
    { title: `Catalyst Code: ${action[0].toUpperCase()}${action.slice(1)} Plugin` },
  );
  return picked?.plugin;
}

async function confirmRemove(plugin: PluginView): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Catalyst Code: remove the plugin "${plugin.name}"?`,
    { modal: true, detail: `Its folder is deleted from disk:\n${plugin.path}` },
    'Remove',
  );
  return choice === 'Remove';
}
