import * as vscode from 'vscode';
import { settingsChange } from '../client/intents/liveSettings';
import type { LaunchSettings } from '../client/channel/launchSettings';
import { COMMANDS } from './ids';
import type { CoreManager, FolderCore } from './coreManager';
import { launchSettingsFor } from './sessionFactory';

/** Settings read when a core is launched; the ones a running core takes apply at once, the rest offer a restart. */
const LAUNCH_SETTINGS = [
  'catalystCode.core',
  'catalystCode.approvalMode',
  'catalystCode.bashTimeoutSecs',
  'catalystCode.autoCompact',
  'catalystCode.rules',
  'catalystCode.scv',
  'catalystCode.web',
];

/**
 * Bash timeout, auto-compact and the approval mode go to the running core (`set_config`, `set_approval`; the core
 * answers `config_changed` / `approval_changed`, shown in the chat); anything else offers a restart rather than
 * restarting under a running turn. Rules settings are not in LaunchSettings: a change there always offers the restart.
 */
export function watchLaunchSettings(cores: CoreManager): vscode.Disposable {
  /** What each core has been given so far: its launch settings, then each live change. */
  const applied = new WeakMap<FolderCore, LaunchSettings>();
  return vscode.workspace.onDidChangeConfiguration(async (e) => {
    const affected = cores.all().filter((core) => LAUNCH_SETTINGS.some((key) => e.affectsConfiguration(key, core.folder.uri)));
    let restart = false;
    for (const core of affected) {
      const now = launchSettingsFor(core.folder);
      const change = settingsChange(applied.get(core) ?? core.launchSettings, now);
      for (const config of change.live) core.session.setRuntimeConfig(config);
      // A core not running yet starts with the mode it was created with: only a new launch takes the new one.
      const modeLive = change.approvalMode !== undefined && core.session.state.core.status === 'ready';
      if (modeLive) core.session.setApprovalMode(change.approvalMode!);
      applied.set(core, now);
      const rulesChanged = e.affectsConfiguration('catalystCode.rules', core.folder.uri);
      restart ||= change.restart || rulesChanged || (change.approvalMode !== undefined && !modeLive);
    }
    if (!restart) return;
    const choice = await vscode.window.showInformationMessage(
      'Catalyst Code: the core settings changed. Restart the core to apply them?',
      'Restart Core',
    );
    if (choice) await vscode.commands.executeCommand(COMMANDS.restartCore);
  });
}
