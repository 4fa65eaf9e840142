import { homedir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { SessionController } from '../client/intents/sessionController';
import { sessionsDirFor } from '../protocol/sessionLayout';
import type { ChatSession } from '../client/intents/chatSession';
import { coreEnvironment, readLaunchSettings, type LaunchSettings } from '../client/channel/launchSettings';
import { readRulesOff, rulesOffEnvironment } from '../client/channel/rulesLaunchSettings';
import type { ModelPreference } from './modelPreference';

/** Upstream's config directory (research §3.3), where the core keeps config.json and the shared sessions. */
export function catalystConfigDir(): string {
  return path.join(homedir(), '.config', 'catalyst-code');
}

export function launchSettingsFor(folder: vscode.WorkspaceFolder): LaunchSettings {
  const config = vscode.workspace.getConfiguration('catalystCode', folder.uri);
  return readLaunchSettings((key) => config.get(key));
}

/** A session controller for one folder, launched with the folder's `catalystCode.*` settings as they are now. */
export function createFolderSession(
  context: vscode.ExtensionContext,
  folder: vscode.WorkspaceFolder,
  models: ModelPreference,
  log: vscode.LogOutputChannel,
): { session: ChatSession; launchSettings: LaunchSettings } {
  const settings = launchSettingsFor(folder);
  const rulesConfig = vscode.workspace.getConfiguration('catalystCode', folder.uri);
  const workspace = folder.uri.fsPath;
  const session = new SessionController({
    launch: {
      kind: settings.kind,
      configuredPath: settings.path,
      env: process.env,
      embeddedCorePath: context.asAbsolutePath(path.join('dist', 'core.js')),
      nodePath: process.execPath,
      workspace,
      approval: settings.approvalMode,
      bashTimeoutSecs: settings.bashTimeoutSecs,
      extraArgs: settings.args,
      extraEnv: { ...coreEnvironment(settings), ...rulesOffEnvironment(readRulesOff((key) => rulesConfig.inspect(key))) },
      scvApprovalPolicy: settings.scvApprovalPolicy,
    },
    sessionsDir: sessionsDirFor(catalystConfigDir(), workspace),
    clientVersion: String(context.extension.packageJSON.version ?? '0.0.0'),
    defaultModel: models.preferred(settings.defaultModel),
    log: multiRootPrefixed(folder, log),
  });
  return { session, launchSettings: settings };
}

/** The client's lines (its own and the core's stderr, which it prefixes) go to the output channel, per folder when several. */
function multiRootPrefixed(folder: vscode.WorkspaceFolder, log: vscode.LogOutputChannel): (line: string) => void {
  return (line) => {
    const prefix = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `[${folder.name}] ` : '';
    log.info(`${prefix}${line}`);
  };
}
