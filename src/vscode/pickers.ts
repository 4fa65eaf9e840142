import * as vscode from 'vscode';
import type { SessionState } from '../shared/sessionState';
import type { CoreManager, FolderCore } from './coreManager';
import { nextCoreEvent } from './coreWaits';
import {
  describeModel,
  groupModelsByProvider,
  isCurrentChoice,
  modelsRefreshedText,
  noModelsMessage,
  type ModelChoice,
} from '../client/presentation/modelGroups';
import { selectModelChoice, type ModelSwitchDeps } from '../client/intents/modelSwitch';
import type { ModelPreference } from './modelPreference';

type ModelItem = vscode.QuickPickItem & Partial<ModelChoice>;

const REFRESH_MODELS: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh Models' };
const PROVIDER_SWITCH_TIMEOUT_MS = 10_000;

/**
 * "Select Model…": a QuickPick grouped by provider, refilled when the core lists models again. Its refresh button sends
 * `refresh_models`; picking another provider's model switches the core to that provider (`set_provider`) first.
 */
export async function pickModel(cores: CoreManager, core: FolderCore, models: ModelPreference): Promise<void> {
  if (core.session.state.models.length === 0) {
    const choice = await vscode.window.showInformationMessage(noModelsMessage(core.session.state), 'Log In…');
    if (choice) await vscode.commands.executeCommand('catalystCode.login');
    return;
  }
  const quickPick = vscode.window.createQuickPick<ModelItem>();
  quickPick.title = 'Catalyst Code: Select Model';
  quickPick.matchOnDescription = true;
  quickPick.buttons = [REFRESH_MODELS];
  const fill = () => {
    quickPick.items = modelItems(core.session.state);
    quickPick.placeholder = `Current: ${core.session.state.model ?? 'none'}`;
  };
  fill();
  const sub = cores.onCoreEvent(({ core: from, event }) => {
    if (from !== core) return;
    // After the reducer has taken the event in.
    if (event.type === 'models') queueMicrotask(fill);
    if (event.type === 'models_refreshed') {
      quickPick.busy = false;
      quickPick.title = `Catalyst Code: Select Model — ${modelsRefreshedText(Number(event.count) || 0)}`;
    }
  });
  quickPick.onDidTriggerButton((button) => {
    if (button !== REFRESH_MODELS) return;
    quickPick.busy = true;
    void core.session.refreshModels();
  });
  const picked = await new Promise<ModelItem | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  sub.dispose();
  quickPick.dispose();
  if (!picked?.model) return;
  await selectModelChoice(modelSwitchDeps(cores, core, models), { model: picked.model, provider: picked.provider });
}

/** The switch path's waits for `core`: the next `models` event (bounded), and the remembered model. */
export function modelSwitchDeps(cores: CoreManager, core: FolderCore, models: ModelPreference): ModelSwitchDeps {
  return {
    session: core.session,
    modelsListed: () => nextCoreEvent(cores, core, 'models', PROVIDER_SWITCH_TIMEOUT_MS),
    remember: (model) => models.remember(model),
  };
}

function modelItems(state: SessionState): ModelItem[] {
  const items: ModelItem[] = [];
  for (const group of groupModelsByProvider(state.models, state.provider)) {
    items.push({ label: group.provider, kind: vscode.QuickPickItemKind.Separator });
    for (const m of group.models) {
      const choice = { model: m.id, provider: m.provider };
      items.push({
        label: `${isCurrentChoice(choice, state.models, state.model) ? '$(check) ' : ''}${m.name || m.id}`,
        description: m.name && m.name !== m.id ? m.id : undefined,
        detail: describeModel(m) || undefined,
        ...choice,
      });
    }
  }
  return items;
}

type SessionItem = vscode.QuickPickItem & { path: string };

/** "Open Session…": the folder's sessions, newest first (pinned on top), refreshed from the core while open. */
export async function pickSession(cores: CoreManager, core: FolderCore): Promise<void> {
  const quickPick = vscode.window.createQuickPick<SessionItem>();
  quickPick.title = 'Catalyst Code: Open Session';
  quickPick.placeholder = 'Choose a conversation to continue';
  quickPick.matchOnDescription = true;
  const fill = () => (quickPick.items = sessionItems(core));
  fill();
  quickPick.busy = true;
  const sub = cores.onCoreEvent(({ core: from, event }) => {
    if (from !== core || event.type !== 'sessions') return;
    queueMicrotask(() => {
      fill();
      quickPick.busy = false;
    });
  });
  await core.session.listSessions();
  const picked = await new Promise<SessionItem | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  sub.dispose();
  quickPick.dispose();
  if (picked) await core.session.loadSession(picked.path);
}

function sessionItems(core: FolderCore): SessionItem[] {
  const sessions = [...core.session.state.sessions].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.mtime - a.mtime);
  return sessions.map((s) => ({
    label: `${s.pinned ? '$(pinned) ' : ''}${s.current ? '$(comment-discussion) ' : ''}${s.title || s.name}`,
    description: `${s.messages} message${s.messages === 1 ? '' : 's'} · ${new Date(s.mtime * 1000).toLocaleString()}`,
    detail: s.current ? 'current session' : undefined,
    path: s.path,
  }));
}

/** "Switch Workspace Folder…" (multi-root): which folder's core the chat talks to. */
export async function pickFolder(cores: CoreManager): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage('Catalyst Code: no folder is open.');
    return;
  }
  const active = cores.activeFolder();
  const picked = await vscode.window.showQuickPick(
    folders.map((folder) => ({
      label: `${folder.uri.toString() === active?.uri.toString() ? '$(check) ' : ''}${folder.name}`,
      description: folder.uri.fsPath,
      folder,
    })),
    { title: 'Catalyst Code: Switch Workspace Folder', placeHolder: 'The chat talks to the agent of this folder' },
  );
  if (picked) cores.switchTo(picked.folder);
}
