import * as vscode from 'vscode';
import type { SearchProvider } from '../protocol';
import type { CoreManager, FolderCore } from './coreManager';
import type { SearchKeyStore } from './searchKeyStore';

const PROVIDERS: readonly { provider: SearchProvider; label: string; detail: string }[] = [
  { provider: 'exa', label: 'Exa', detail: 'An Exa API key (exa.ai)' },
  { provider: 'tavily', label: 'Tavily', detail: 'A Tavily API key (tavily.com)' },
];

/**
 * "Catalyst: Set Web Search Key…": Exa, Tavily or clear both; the key goes to SecretStorage and to every running core
 * with `set_search_key`, and again to each core that (re)starts. web_search is offered to the model while a key is set.
 */
export class SearchKeyFlow implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly wasReady = new WeakMap<FolderCore, boolean>();

  constructor(
    private readonly cores: CoreManager,
    private readonly keys: SearchKeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    for (const core of cores.all()) this.watch(core);
    this.subscriptions.push(cores.onDidCreateCore((core) => this.watch(core)));
  }

  async run(): Promise<void> {
    const choice = await vscode.window.showQuickPick(
      [
        ...PROVIDERS.map((p) => ({ label: p.label, detail: p.detail, provider: p.provider as SearchProvider | undefined })),
        { label: 'Clear', detail: 'Remove the stored Exa and Tavily keys', provider: undefined },
      ],
      { title: 'Catalyst: Set Web Search Key', placeHolder: 'Which search API?' },
    );
    if (!choice) return;
    if (!choice.provider) return this.clear();
    const key = await vscode.window.showInputBox({
      title: `${choice.label} API key`,
      prompt: 'Kept in VS Code’s secret storage and given to the agent core in memory only.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : 'Enter a key, or press Escape to cancel.'),
    });
    if (!key?.trim()) return;
    await this.keys.store(choice.provider, key.trim());
    const sent = this.sendToAll(choice.provider, key.trim());
    void vscode.window.showInformationMessage(
      sent > 0
        ? `Catalyst Code: the ${choice.label} key is set; web_search is available.`
        : `Catalyst Code: the ${choice.label} key is stored.`,
    );
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }

  private async clear(): Promise<void> {
    for (const { provider } of PROVIDERS) {
      await this.keys.delete(provider);
      this.sendToAll(provider, '');
    }
    void vscode.window.showInformationMessage('Catalyst Code: the web search keys are cleared.');
  }

  private sendToAll(provider: SearchProvider, key: string): number {
    return this.cores.all().filter((core) => core.session.setSearchKey(provider, key)).length;
  }

  /** Each time a core becomes ready (first start and restarts) it has no search key: give it the stored ones. */
  private watch(core: FolderCore): void {
    const onState = () => {
      const ready = core.session.state.core.status === 'ready';
      if (ready && !this.wasReady.get(core)) void this.sendStored(core);
      this.wasReady.set(core, ready);
    };
    this.subscriptions.push(core.session.onDidChange(onState));
    onState();
  }

  private async sendStored(core: FolderCore): Promise<void> {
    try {
      for (const { provider } of PROVIDERS) {
        const key = await this.keys.get(provider);
        if (key && core.session.setSearchKey(provider, key, true)) this.log.info(`sent the stored ${provider} search key to the core`);
      }
    } catch (err) {
      this.log.error(`could not read the stored search keys: ${(err as Error).message}`);
    }
  }
}
