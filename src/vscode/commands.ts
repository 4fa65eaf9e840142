import * as vscode from 'vscode';
import type { ChatHub } from './chatHub';
import type { ChatPanelManager } from './chatPanel';
import { errorText, type CoreManager, type FolderCore } from './coreManager';
import { COMMANDS } from './ids';
import type { LoginFlow } from './loginFlow';
import type { SearchKeyFlow } from './searchKeyFlow';
import { addFileToChat, askAboutSelection } from './mentionCommands';
import type { ModelPreference } from './modelPreference';
import { pickFolder, pickModel, pickSession } from './pickers';
import { pickApprovalMode } from './approvalModePicker';
import { launchSettingsFor } from './sessionFactory';
import { pickAndApplySkill } from './skillCommands';
import { browseSkillMarketplace } from './skillMarketplace';
import { showMemory } from './memoryCommands';
import { showVisionSettings } from './visionSettingsFlow';
import { pickAndRunSubagent } from './subagentCommands';
import type { StatsDocument } from './statsDocument';

export interface CommandDeps {
  cores: CoreManager;
  hub: ChatHub;
  panels: ChatPanelManager;
  login: LoginFlow;
  searchKeys: SearchKeyFlow;
  models: ModelPreference;
  stats: StatsDocument;
  log: vscode.LogOutputChannel;
}

type Handler = (...args: any[]) => unknown;

/** A handler for every id of a command table: an id without one does not compile. */
export type HandlersFor<Ids extends Record<string, string>> = Record<Ids[keyof Ids], Handler>;

/** Every palette command (category "Catalyst"); the manifest lists the same ids. */
export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const withCore =
    (run: (core: FolderCore) => unknown): Handler =>
    () => {
      const core = requireCore(d.cores);
      return core && run(core);
    };
  const handlers: HandlersFor<typeof COMMANDS> = {
    [COMMANDS.openChat]: () => d.hub.revealSidebar(),
    [COMMANDS.openChatInEditor]: () => d.panels.open(),
    [COMMANDS.focusInput]: () => d.hub.deliver({ type: 'focusInput' }),
    [COMMANDS.newSession]: withCore(async (core) => {
      await core.session.newSession();
      await d.hub.deliver({ type: 'focusInput' });
    }),
    [COMMANDS.openSession]: withCore((core) => pickSession(d.cores, core)),
    [COMMANDS.askAboutSelection]: () => askAboutSelection(d.hub),
    [COMMANDS.addFileToChat]: (clicked?: vscode.Uri, selected?: vscode.Uri[]) => addFileToChat(d.hub, asUri(clicked), asUris(selected)),
    [COMMANDS.abort]: () => {
      const core = d.cores.active();
      if (core && core.session.state.run.status !== 'idle') return core.session.abort();
    },
    [COMMANDS.undo]: withCore((core) => core.session.undo()),
    [COMMANDS.compact]: withCore((core) => core.session.compact()),
    [COMMANDS.setApprovalMode]: withCore((core) => pickApprovalMode(core)),
    [COMMANDS.selectModel]: withCore((core) => pickModel(d.cores, core, d.models)),
    [COMMANDS.login]: () => d.login.login(),
    [COMMANDS.setWebSearchKey]: () => d.searchKeys.run(),
    [COMMANDS.logout]: () => d.login.logout(),
    [COMMANDS.addCustomProvider]: () => d.login.addCustomProvider(),
    [COMMANDS.showStats]: withCore((core) => d.stats.show(core)),
    [COMMANDS.showUsage]: withCore((core) => d.stats.showUsage(core)),
    [COMMANDS.restartCore]: () => restartCore(d.cores),
    [COMMANDS.showLog]: () => d.log.show(true),
    [COMMANDS.switchFolder]: () => pickFolder(d.cores),
    [COMMANDS.runSubagent]: withCore(async (core) => {
      if (await pickAndRunSubagent(core)) await d.hub.revealSidebar();
    }),
    [COMMANDS.applySkill]: withCore(async (core) => {
      if (await pickAndApplySkill(core)) await d.hub.revealSidebar();
    }),
    [COMMANDS.browseSkillMarketplace]: withCore((core) => browseSkillMarketplace(core)),
    [COMMANDS.showMemory]: withCore((core) => showMemory(core)),
    [COMMANDS.visionSettings]: withCore((core) => showVisionSettings(core.session)),
  };
  return registerReportingCommands(handlers, d.log);
}

/** Registers each handler so that a failure is logged and shown to the user (with the log one click away). */
export function registerReportingCommands(handlers: Readonly<Record<string, Handler>>, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return Object.entries(handlers).map(([id, handler]) => vscode.commands.registerCommand(id, reportingErrors(id, handler, log)));
}

/** A command that fails says so (and how to see why), instead of failing silently in the extension host. */
function reportingErrors(id: string, handler: Handler, log: vscode.LogOutputChannel): Handler {
  return async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (err) {
      log.error(`${id} failed: ${errorText(err)}`);
      const choice = await vscode.window.showErrorMessage(`Catalyst Code: ${errorText(err)}`, 'Show Core Log');
      if (choice) log.show(true);
    }
  };
}

function requireCore(cores: CoreManager): FolderCore | undefined {
  const core = cores.ensureActive();
  if (!core) void vscode.window.showInformationMessage('Catalyst Code: open a folder first; the chat works inside a workspace folder.');
  return core;
}

/** Restart Core: the same launch if the settings did not change, else a fresh controller with the new ones. */
async function restartCore(cores: CoreManager): Promise<void> {
  const core = cores.active();
  if (!core) {
    requireCore(cores);
    return;
  }
  const before = JSON.stringify(core.launchSettings);
  const now = JSON.stringify(launchSettingsFor(core.folder));
  if (before === now) await core.session.restart();
  else await cores.recreate(core);
}

function asUri(v: unknown): vscode.Uri | undefined {
  return v instanceof vscode.Uri ? v : undefined;
}

function asUris(v: unknown): vscode.Uri[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is vscode.Uri => x instanceof vscode.Uri) : undefined;
}
