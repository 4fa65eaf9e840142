import * as vscode from 'vscode';
import type { CoreManager } from '../coreManager';
import { noticePrefix, pluginErrorToast } from '../folderNotices';
import { registerPluginCommands } from './pluginCommands';
import { PLUGINS_VIEW_ID } from './pluginIds';
import { PluginsTree } from './pluginsTree';
import { PluginTrustPrompt } from './pluginTrustPrompt';

/** Issue #17's extension side: the trust prompt, the Plugins view and its commands. */
export function registerPlugins(d: { cores: CoreManager; log: vscode.LogOutputChannel }): vscode.Disposable[] {
  const trust = new PluginTrustPrompt(d.cores);
  const tree = new PluginsTree(d.cores);
  return [
    trust,
    tree,
    // A failed install or action started in the Plugins view: the chat (which has the notice too) may be out of sight.
    d.cores.onCoreEvent(({ core, event }) => {
      if (event.type !== 'plugin_error') return;
      const text = pluginErrorToast(event, noticePrefix(core.folder.name, d.cores.all().length));
      if (text) void vscode.window.showErrorMessage(text);
    }),
    vscode.window.createTreeView(PLUGINS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: false }),
    ...registerPluginCommands({ cores: d.cores, trust, log: d.log }),
  ];
}
