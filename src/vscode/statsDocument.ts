import * as vscode from 'vscode';
import type { LooseEvent, UsageEvent } from '../protocol';
import type { CoreManager, FolderCore } from './coreManager';
import { nextCoreEvent } from './coreWaits';
import { STATS_SCHEME } from './ids';
import { formatStatsMarkdown } from '../client/presentation/statsMarkdown';
import { formatUsageSection } from '../client/presentation/usageMarkdown';
import { formatRuntimeStatusSection } from '../client/presentation/runtimeStatusMarkdown';

const REPLY_TIMEOUT_MS = 5_000;
/** The core's usage request gives up after 10 s. */
const USAGE_TIMEOUT_MS = 12_000;

/** "Show Stats": asks the core for `stats` and `context_breakdown` and shows them as a Markdown preview. */
export class StatsDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly contents = new Map<string, string>();

  constructor(private readonly cores: CoreManager) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '# Catalyst Code — session stats\n\n_Run "Catalyst: Show Stats" again to refresh._\n';
  }

  async show(core: FolderCore): Promise<void> {
    const stats = nextCoreEvent(this.cores, core, 'stats', REPLY_TIMEOUT_MS);
    const context = nextCoreEvent(this.cores, core, 'context_breakdown', REPLY_TIMEOUT_MS);
    const runtime = this.runtimeSection(core);
    await core.session.stats(false);
    await core.session.context(false);
    // Stats do not wait for a slow provider: its usage is shown if it answers as soon as the rest. The answer comes in a
    // later read of the core's stdout, so listening right after the send misses nothing; SCV has none to wait for.
    const usage = core.session.usage() ? nextCoreEvent(this.cores, core, 'usage', REPLY_TIMEOUT_MS) : Promise.resolve(undefined);
    const [s, c, u] = await Promise.all([stats, context, usage]);
    const markdown = formatStatsMarkdown(
      core.session.state,
      s as LooseEvent<'stats'> | undefined,
      c as LooseEvent<'context_breakdown'> | undefined,
    );
    await this.open(core, 'stats', `${markdown}\n${formatUsageSection(u as UsageEvent | undefined).join('\n')}\n\n${await runtime}\n`);
  }

  /** The core's runtime_status (its run, what waits on the user, the resources it holds), as the stats view's last section. */
  private async runtimeSection(core: FolderCore): Promise<string> {
    const answer = nextCoreEvent(this.cores, core, 'runtime_status', REPLY_TIMEOUT_MS);
    core.session.runtimeStatus();
    return formatRuntimeStatusSection((await answer) as LooseEvent<'runtime_status'> | undefined).join('\n');
  }

  /** "Show Usage": the provider's plan and rate-limit windows for the current model. */
  async showUsage(core: FolderCore): Promise<void> {
    const answer = nextCoreEvent(this.cores, core, 'usage', USAGE_TIMEOUT_MS);
    if (!core.session.usage(core.session.state.model)) {
      // Refused: the core is not ready (the session said so), or an SCV server, which has no provider usage.
      if (core.launchSettings.kind === 'scv')
        void vscode.window.showInformationMessage('Catalyst Code: an SCV server reports no provider usage.');
      return;
    }
    const usage = vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Catalyst Code: asking the provider for usage…' },
      () => answer,
    );
    const section = formatUsageSection((await usage) as UsageEvent | undefined);
    await this.open(core, 'usage', `# Catalyst Code — usage\n\n${section.join('\n')}\n`);
  }

  private async open(core: FolderCore, name: string, markdown: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: STATS_SCHEME, path: `/${core.folder.name} ${name}.md` });
    this.contents.set(uri.toString(), markdown);
    this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
