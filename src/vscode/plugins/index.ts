import * as vscode from 'vscode';
import type { CoreManager } from '../coreManager';
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
    vscode.window.createTreeView(PLUGINS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: false }),
    ...registerPluginCommands({ cores: d.cores, trust, log: d.log }),
  ];
}
