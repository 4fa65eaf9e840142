/**
 * The deferred tools a session has enabled with load_tools. Upstream empties the set on reset, clear, new_session and
 * load_session, and keeps it through compaction.
 */
import { loadToolsGroup } from './deferredGroups';

export interface LoadResult {
  enabled: string[];
  alreadyEnabled: string[];
  /** Named tools the model always has, which need no loading. */
  alwaysOffered: string[];
  /** Members of a requested group that this core does not build in. */
  notInThisCore: string[];
  /** Named entries that are neither a group nor a deferred tool of this core. */
  unknown: string[];
}

export class LoadedTools {
  private readonly loaded = new Set<string>();

  constructor(
    /** The deferred tools this core builds in. */
    readonly available: readonly string[],
    private readonly alwaysOffered: readonly string[],
  ) {}

  has(name: string): boolean {
    return this.loaded.has(name);
  }

  /** Enables every available tool the entries (tool names or groups) stand for, and says what became of each. */
  load(entries: readonly string[]): LoadResult {
    const result: LoadResult = { enabled: [], alreadyEnabled: [], alwaysOffered: [], notInThisCore: [], unknown: [] };
    const named = new Set<string>();
    const grouped = new Set<string>();
    for (const entry of entries) for (const name of loadToolsGroup(entry) ?? []) grouped.add(name);
    for (const entry of entries) if (!loadToolsGroup(entry)) named.add(entry);
    for (const name of [...new Set([...grouped, ...named])].sort()) {
      if (this.available.includes(name)) this.enable(name, result);
      else if (named.has(name)) (this.alwaysOffered.includes(name) ? result.alwaysOffered : result.unknown).push(name);
      else result.notInThisCore.push(name);
    }
    return result;
  }

  clear(): void {
    this.loaded.clear();
  }

  private enable(name: string, result: LoadResult): void {
    (this.loaded.has(name) ? result.alreadyEnabled : result.enabled).push(name);
    this.loaded.add(name);
  }
}
