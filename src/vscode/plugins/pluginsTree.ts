import * as vscode from 'vscode';
import { supports } from '../../shared/coreCapabilities';
import type { PluginView } from '../../shared/pluginState';
import { type SessionState, UI_CAPABILITIES } from '../../shared/sessionState';
import type { CoreManager } from '../coreManager';
import { PLUGIN_ITEM_CONTEXT } from './pluginIds';

/** A plugin row, or one of its detail rows (hooks, tools, commands). */
export type PluginNode = { kind: 'plugin'; plugin: PluginView } | { kind: 'detail'; label: string; names: string[]; icon: string };

/**
 * UI-2 of issue #17: the active core's plugins (state.plugins.list), each with its version, scope and whether it is
 * enabled, and its hooks, tools and commands as children. It asks the core for the list each time a core with plugins
 * becomes ready, and again after an install, removal, enable or disable (those answers carry no list).
 */
export class PluginsTree implements vscode.TreeDataProvider<PluginNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown: SessionState['plugins'];
  private lastStatus = new Map<string, SessionState['core']['status']>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly cores: CoreManager) {
    this.subscriptions = [
      this.changed,
      cores.onDidChangeActiveState(({ state }) => this.update(state)),
      cores.onDidSwitch(() => this.update(cores.activeState())),
      cores.onCoreEvent(({ core, event }) => {
        if (CHANGES_LIST.has(event.type)) core.session.listPlugins();
      }),
    ];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  getTreeItem(node: PluginNode): vscode.TreeItem {
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(`${node.label}: ${node.names.join(', ')}`, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.icon);
      return item;
    }
    const p = node.plugin;
    const hasDetails = detailsOf(p).length > 0;
    const item = new vscode.TreeItem(p.name, hasDetails ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${p.scope}:${p.path || p.name}`;
    item.description = [p.version, p.scope, p.enabled ? '' : 'disabled'].filter(Boolean).join(' · ');
    item.tooltip = new vscode.MarkdownString().appendText(
      `${p.name} ${p.version}${p.description ? ` — ${p.description}` : ''}\n\n${p.path}`,
    );
    item.iconPath = new vscode.ThemeIcon(p.enabled ? 'extensions' : 'circle-slash');
    item.contextValue = p.enabled ? PLUGIN_ITEM_CONTEXT.enabled : PLUGIN_ITEM_CONTEXT.disabled;
    return item;
  }

  getChildren(node?: PluginNode): PluginNode[] {
    if (node?.kind === 'plugin') return detailsOf(node.plugin);
    if (node) return [];
    return (this.cores.activeState().plugins?.list ?? []).map((plugin) => ({ kind: 'plugin', plugin }));
  }

  private update(state: SessionState): void {
    const key = this.cores.activeFolder()?.uri.toString() ?? '';
    const wasReady = this.lastStatus.get(key) === 'ready';
    this.lastStatus.set(key, state.core.status);
    if (!wasReady && state.core.status === 'ready' && supports(state, UI_CAPABILITIES.plugins)) this.cores.active()?.session.listPlugins();
    if (state.plugins === this.shown) return;
    this.shown = state.plugins;
    this.changed.fire();
  }
}

/** Answers that change the list without carrying it. */
const CHANGES_LIST: ReadonlySet<string> = new Set(['plugin_installed', 'plugin_removed', 'plugin_enabled', 'plugin_disabled']);

function detailsOf(p: PluginView): PluginNode[] {
  const rows: PluginNode[] = [
    { kind: 'detail', label: 'Hooks', names: p.hooks, icon: 'zap' },
    { kind: 'detail', label: 'Tools', names: p.tools, icon: 'tools' },
    { kind: 'detail', label: 'Commands', names: p.commands.map((c) => `/${c.replace(/^\//, '')}`), icon: 'terminal' },
  ];
  return rows.filter((r) => r.kind === 'detail' && r.names.length > 0);
}
