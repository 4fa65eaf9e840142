import * as vscode from 'vscode';
import { COMMANDS } from './ids';
import type { CoreManager } from './coreManager';

/** Settings read when a core is launched; changing one offers a restart rather than restarting under a running turn. */
const LAUNCH_SETTINGS = [
  'catalystCode.core',
  'catalystCode.approvalMode',
  'catalystCode.bashTimeoutSecs',
  'catalystCode.autoCompact',
  'catalystCode.rules',
  'catalystCode.scv',
  'catalystCode.web',
];

export function watchLaunchSettings(cores: CoreManager): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration(async (e) => {
    const affected = cores.all().filter((core) => LAUNCH_SETTINGS.some((key) => e.affectsConfiguration(key, core.folder.uri)));
    if (affected.length === 0) return;
    const choice = await vscode.window.showInformationMessage(
      'Catalyst Code: the core settings changed. Restart the core to apply them?',
      'Restart Core',
    );
    if (choice) await vscode.commands.executeCommand(COMMANDS.restartCore);
  });
}
