import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { SLASH_COMMANDS } from './client/intents/slashCommands';
import { ApiKeyStore } from './vscode/apiKeyStore';
import { SearchKeyFlow } from './vscode/searchKeyFlow';
import { SearchKeyStore } from './vscode/searchKeyStore';
import { ChatHub } from './vscode/chatHub';
import { ChatPanelManager } from './vscode/chatPanel';
import { ChatViewProvider } from './vscode/chatViewProvider';
import { registerCheckpoints } from './vscode/checkpoints';
import { registerCommands } from './vscode/commands';
import { ChatContextKeys } from './vscode/contextKeys';
import { CoreManager } from './vscode/coreManager';
import { FileCompletion } from './vscode/fileCompletion';
import { ControlCenterPanel } from './vscode/goal/controlCenterPanel';
import { registerGoalCommands } from './vscode/goal/goalCommands';
import { GoalNotifier } from './vscode/goal/goalNotifier';
import { GoalStatusItem } from './vscode/goal/goalStatusItem';
import { CHAT_PANEL_ID, CHAT_VIEW_ID, GOAL_PANEL_ID, OUTPUT_CHANNEL_NAME, STATS_SCHEME } from './vscode/ids';
import { LoginFlow } from './vscode/loginFlow';
import { ApprovalDiffController } from './vscode/review/approvalDiffController';
import { ReviewCodeLensProvider } from './vscode/review/reviewCodeLens';
import { registerReviewCommands } from './vscode/review/reviewCommands';
import { ReviewFileSystem } from './vscode/review/reviewFileSystem';
import { REVIEW_SCHEME } from './vscode/review/reviewUris';
import { ModelPreference } from './vscode/modelPreference';
import { registerPlugins } from './vscode/plugins';
import { createFolderSession } from './vscode/sessionFactory';
import { watchLaunchSettings } from './vscode/settingsWatcher';
import { StatsDocument } from './vscode/statsDocument';
import { IntercomNotifier } from './vscode/subagentCommands';
import { CoreStatusBar } from './vscode/statusBar';
import type { BridgeHost } from './vscode/webviewBridge';
import { WebviewMessageHandler } from './vscode/webviewMessageHandler';

let cores: CoreManager | undefined;

/**
 * The composition root. Cheap by design (BRIEF §4, ≤ 50 ms): no core is spawned, no secret read and no file scanned
 * here — the core starts when the chat is first shown or a command needs it.
 */
export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  const keys = new ApiKeyStore(context.secrets);
  const models = new ModelPreference(context.workspaceState);
  cores = new CoreManager({ log, keys, createSession: (folder) => createFolderSession(context, folder, models, log) });

  const files = new FileCompletion();
  const reviewFs = new ReviewFileSystem();
  // `hub` is created below; the controller only asks it about visibility later, when an approval arrives.
  const approvals = new ApprovalDiffController({ cores, fs: reviewFs, log, chatVisible: () => hub.anyVisible() });
  const messages = new WebviewMessageHandler({ cores, files, models, slashCommands: SLASH_COMMANDS, approvals });
  const host: BridgeHost = {
    cores,
    log,
    extensionUri: context.extensionUri,
    viewContext: (placement) => ({ placement, slashCommands: [...SLASH_COMMANDS] }),
    handle: (message, bridge) => messages.handle(message, bridge),
  };
  const hub = new ChatHub(host);
  const panels = new ChatPanelManager(hub, context.extensionUri);
  const controlCenter = new ControlCenterPanel(hub, context.extensionUri);
  const stats = new StatsDocument(cores);
  const searchKeys = new SearchKeyFlow(cores, new SearchKeyStore(context.secrets), log);
  const login = new LoginFlow(cores, keys, log);

  context.subscriptions.push(
    log,
    cores,
    hub,
    panels,
    stats,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, new ChatViewProvider(hub), {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_ID, panels),
    controlCenter,
    vscode.window.registerWebviewPanelSerializer(GOAL_PANEL_ID, controlCenter),
    new GoalStatusItem(cores),
    new GoalNotifier(cores, () => controlCenter.visible()),
    ...registerGoalCommands({ cores, controlCenter, log }),
    vscode.workspace.registerTextDocumentContentProvider(STATS_SCHEME, stats),
    reviewFs,
    vscode.workspace.registerFileSystemProvider(REVIEW_SCHEME, reviewFs, { isCaseSensitive: true }),
    approvals,
    // The Control Center shows no intercom question: it being on screen must not hold the notification back.
    new IntercomNotifier(cores, () => hub.anyChatVisible()),
    vscode.languages.registerCodeLensProvider({ scheme: REVIEW_SCHEME }, new ReviewCodeLensProvider(approvals)),
    ...registerReviewCommands(approvals, log),
    registerCheckpoints({ cores, log }),
    ...registerPlugins({ cores, log }),
    new CoreStatusBar(cores),
    new ChatContextKeys(cores),
    watchLaunchSettings(cores),
    searchKeys,
    login,
    ...registerCommands({ cores, hub, panels, login, searchKeys, models, stats, log }),
  );
  log.info(`Catalyst Code ${String(context.extension.packageJSON.version)} activated in ${(performance.now() - started).toFixed(1)} ms`);
}

/** Stops every core (closing stdin, then SIGKILL after a grace period) so none outlives the window. */
export async function deactivate(): Promise<void> {
  await cores?.stopAll();
  cores = undefined;
}
