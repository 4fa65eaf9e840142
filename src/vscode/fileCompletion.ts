import * as vscode from 'vscode';
import type { CompletionItem } from '../shared/webviewMessages';
import { rankPaths } from '../client/presentation/fuzzyPathMatch';
import { formatPathMention } from '../client/presentation/selectionPrompt';

const EXCLUDE = '{**/node_modules/**,**/.git/**}';
const MAX_SCANNED = 20_000;
const MAX_ITEMS = 50;
/** A keystroke-by-keystroke `@` completion reuses one scan; new files show up after this long. */
const CACHE_MS = 10_000;

/** `@` file completion for the chat composer: workspace files ranked fuzzily by the query. */
export class FileCompletion {
  private cache = new Map<string, { at: number; paths: Promise<string[]> }>();

  async complete(folder: vscode.WorkspaceFolder, query: string): Promise<CompletionItem[]> {
    const paths = await this.paths(folder);
    return rankPaths(query, paths, MAX_ITEMS).map((path) => {
      const slash = path.lastIndexOf('/');
      return { label: path.slice(slash + 1), detail: slash > 0 ? path.slice(0, slash) : undefined, insertText: formatPathMention(path) };
    });
  }

  private paths(folder: vscode.WorkspaceFolder): Promise<string[]> {
    const key = folder.uri.toString();
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.paths;
    const paths = Promise.resolve(vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_SCANNED)).then(
      (uris) => uris.map((uri) => vscode.workspace.asRelativePath(uri, false)),
    );
    this.cache.set(key, { at: Date.now(), paths });
    paths.catch(() => this.cache.delete(key));
    return paths;
  }
}
