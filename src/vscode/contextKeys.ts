import * as vscode from 'vscode';
import type { CoreKind, SessionState } from '../shared/sessionState';
import { goalPhaseActive } from '../shared/goalState';
import type { CoreManager } from './coreManager';
import { CORE_CONTEXT_KEYS, coreContextValues } from '../client/presentation/coreContextValues';
import { CONTEXT_KEYS } from './ids';
import { launchSettingsFor } from './sessionFactory';

/**
 * Context keys for keybindings and menus, set only when they change: `catalystCode.running`,
 * `catalystCode.awaitingApproval`, `catalystCode.goalActive`, and what the chat's core can do (`catalystCode.core.*`, see coreContextValues).
 */
export class ChatContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, unknown>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly cores: CoreManager) {
    const refresh = () => this.update(cores.active()?.session.state);
    this.subscriptions = [
      cores.onDidChangeActiveState(({ state }) => this.update(state)),
      cores.onDidSwitch(refresh),
      // Before a core exists the keys follow the configured kind.
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('catalystCode.core.kind') && refresh()),
    ];
    refresh();
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }

  private update(state: SessionState | undefined): void {
    this.set(CONTEXT_KEYS.running, !!state && state.core.status === 'ready' && state.run.status !== 'idle');
    this.set(CONTEXT_KEYS.awaitingApproval, !!state && state.run.status === 'waiting_approval');
    this.set(CONTEXT_KEYS.goalActive, !!state?.goal && goalPhaseActive(state.goal.phase));
    const values = coreContextValues(state, this.configuredKind());
    for (const name of Object.keys(CORE_CONTEXT_KEYS) as (keyof typeof CORE_CONTEXT_KEYS)[])
      this.set(CORE_CONTEXT_KEYS[name], values[name]);
  }

  private configuredKind(): CoreKind {
    const core = this.cores.active();
    if (core) return core.launchSettings.kind;
    const folder = this.cores.activeFolder();
    return folder ? launchSettingsFor(folder).kind : 'embedded';
  }

  private set(key: string, value: unknown): void {
    if (this.values.has(key) && this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
