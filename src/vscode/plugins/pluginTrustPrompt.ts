import * as vscode from 'vscode';
import { undecidedTrust, type PluginTrustEntryView } from '../../shared/pluginState';
import type { CoreManager, FolderCore } from '../coreManager';
import { allDecided, changedDecisions, pickedDecisions, promptKey, trustDetail, type TrustDecisions } from './trustChoices';

type EntryPick = vscode.QuickPickItem & { path: string };

/**
 * UI-1 of issue #17: when a core asks about project plugins nobody has decided on, a modal names them (Trust / Choose… /
 * Deny); the same undecided set is asked once per window, and dismissing it decides nothing (the core asks again at the
 * next start). Manage Plugin Trust… asks the core for every project plugin and lets the user change each decision.
 */
export class PluginTrustPrompt implements vscode.Disposable {
  private readonly asked = new Set<string>();
  /** Cores (folder uri) whose next plugin_trust_prompt answers Manage Plugin Trust…, not the start-up question. */
  private readonly managing = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly cores: CoreManager) {
    this.subscription = cores.onCoreEvent(({ core, event }) => {
      if (event.type === 'plugin_trust_prompt') void this.onPrompt(core);
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** Sends plugin_trust_prompt; the answer opens the picker of every project plugin with its decision. */
  manage(core: FolderCore): boolean {
    const key = core.folder.uri.toString();
    this.managing.add(key);
    if (core.session.requestPluginTrust()) return true;
    this.managing.delete(key);
    return false;
  }

  private async onPrompt(core: FolderCore): Promise<void> {
    const folder = core.folder.uri.toString();
    if (this.managing.delete(folder)) return this.manageEntries(core, core.session.state.plugins?.trust ?? []);
    const entries = undecidedTrust(core.session.state.plugins);
    const key = promptKey(folder, entries);
    if (entries.length === 0 || this.asked.has(key)) return;
    this.asked.add(key);
    const decisions = await askAbout(core.folder.name, entries);
    if (decisions) core.session.trustPlugins(decisions);
  }

  private async manageEntries(core: FolderCore, entries: readonly PluginTrustEntryView[]): Promise<void> {
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(`Catalyst Code: ${core.folder.name} has no project plugins.`);
      return;
    }
    const picked = await pickTrusted(entries, true, `Catalyst Code: Plugin Trust — ${core.folder.name}`);
    if (!picked) return;
    const changes = changedDecisions(entries, pickedDecisions(entries, picked));
    if (Object.keys(changes).length === 0) return;
    core.session.trustPlugins(changes);
  }
}

/** The modal; undefined when it was dismissed (nothing is decided then). */
async function askAbout(folder: string, entries: readonly PluginTrustEntryView[]): Promise<TrustDecisions | undefined> {
  const one = entries.length === 1;
  const title = one
    ? `Trust the project plugin "${entries[0].name}" of ${folder}? It runs code on this machine.`
    : `Trust the ${entries.length} project plugins of ${folder}? They run code on this machine.`;
  const buttons = one ? ['Trust', 'Deny'] : ['Trust All', 'Choose…', 'Deny All'];
  const choice = await vscode.window.showWarningMessage(
    `Catalyst Code: ${title}`,
    { modal: true, detail: trustDetail(entries) },
    ...buttons,
  );
  if (choice === 'Trust' || choice === 'Trust All') return allDecided(entries, 'trust');
  if (choice === 'Deny' || choice === 'Deny All') return allDecided(entries, 'deny');
  if (choice !== 'Choose…') return undefined;
  const picked = await pickTrusted(entries, false, `Catalyst Code: trust which plugins of ${folder}?`);
  return picked ? pickedDecisions(entries, picked) : undefined;
}

/** A multi-select of the plugins to trust (the rest are denied); undefined when cancelled. */
async function pickTrusted(entries: readonly PluginTrustEntryView[], showDecision: boolean, title: string): Promise<string[] | undefined> {
  const items: EntryPick[] = entries.map((e) => ({
    label: e.name,
    description: `${e.version}${showDecision ? ` · ${e.decision === '' ? 'not decided' : e.decision === 'trust' ? 'trusted' : 'denied'}` : ''}`,
    detail: `${e.description ? `${e.description} — ` : ''}${e.path}`,
    picked: e.decision === 'trust',
    path: e.path,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Checked plugins are trusted and load; unchecked ones are denied.',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return picked?.map((p) => p.path);
}
