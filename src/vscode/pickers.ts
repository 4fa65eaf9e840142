import * as vscode from 'vscode';
import type { CoreManager, FolderCore } from './coreManager';
import { describeModel, groupModelsByProvider, noModelsMessage } from '../client/presentation/modelGroups';
import type { ModelPreference } from './modelPreference';

type ModelItem = vscode.QuickPickItem & { model?: string };

/** "Select Model…": a QuickPick grouped by provider. */
export async function pickModel(core: FolderCore, models: ModelPreference): Promise<void> {
  const state = core.session.state;
  if (state.models.length === 0) {
    const choice = await vscode.window.showInformationMessage(noModelsMessage(state), 'Log In…');
    if (choice) await vscode.commands.executeCommand('catalystCode.login');
    return;
  }
  const items: ModelItem[] = [];
  for (const group of groupModelsByProvider(state.models, state.provider)) {
    items.push({ label: group.provider, kind: vscode.QuickPickItemKind.Separator });
    for (const m of group.models) {
      items.push({
        label: `${m.id === state.model ? '$(check) ' : ''}${m.name || m.id}`,
        description: m.name && m.name !== m.id ? m.id : undefined,
        detail: describeModel(m) || undefined,
        model: m.id,
      });
    }
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Catalyst Code: Select Model',
    placeHolder: `Current: ${state.model ?? 'none'}`,
    matchOnDescription: true,
  });
  if (!picked?.model) return;
  models.remember(picked.model);
  await core.session.setModel(picked.model);
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
