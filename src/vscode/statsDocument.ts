import * as vscode from 'vscode';
import type { LooseEvent } from '../protocol';
import type { CoreManager, FolderCore } from './coreManager';
import { nextCoreEvent } from './coreWaits';
import { STATS_SCHEME } from './ids';
import { formatStatsMarkdown } from '../client/presentation/statsMarkdown';
import { formatRuntimeStatusSection } from '../client/presentation/runtimeStatusMarkdown';

const REPLY_TIMEOUT_MS = 5_000;

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
    const [s, c] = await Promise.all([stats, context]);
    const markdown = formatStatsMarkdown(
      core.session.state,
      s as LooseEvent<'stats'> | undefined,
      c as LooseEvent<'context_breakdown'> | undefined,
    );
    const uri = vscode.Uri.from({ scheme: STATS_SCHEME, path: `/${core.folder.name} stats.md` });
    this.contents.set(uri.toString(), `${markdown}\n\n${await runtime}\n`);
    this.changed.fire(uri);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  }

  /** The core's runtime_status (its run, what waits on the user, the resources it holds), as the stats view's last section. */
  private async runtimeSection(core: FolderCore): Promise<string> {
    const answer = nextCoreEvent(this.cores, core, 'runtime_status', REPLY_TIMEOUT_MS);
    core.session.runtimeStatus();
    return formatRuntimeStatusSection((await answer) as LooseEvent<'runtime_status'> | undefined).join('\n');
  }

  dispose(): void {
    this.changed.dispose();
  }
}
