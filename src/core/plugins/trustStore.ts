/**
 * Upstream's plugin trust store, `~/.config/catalyst-code/plugin-trust.json`:
 * `{ projects: { <canonical workspace>: { <canonical plugin dir>: "trust"|"deny" } }, installed: { <ws>: [<dir>…] } }`,
 * read-modify-written atomically under `plugin-trust.lock`. Only the user's own config dir holds it, never the project.
 */
import { join } from 'node:path';
import { LockedJsonFile } from '../platform/lockedJsonFile';
import type { TrustDecision } from './types';

interface TrustData {
  projects: Record<string, Record<string, TrustDecision>>;
  installed: Record<string, string[]>;
}

export class PluginTrustStore {
  readonly path: string;
  private readonly file: LockedJsonFile<TrustData>;

  constructor(
    configDir: string,
    /** The canonical workspace: this store's key for the project. */
    private readonly workspace: string,
  ) {
    this.path = join(configDir, 'plugin-trust.json');
    this.file = new LockedJsonFile(this.path, join(configDir, 'plugin-trust.lock'), trustData, () => ({ projects: {}, installed: {} }));
  }

  decisions(): Map<string, TrustDecision> {
    return new Map(Object.entries(this.read().projects[this.workspace] ?? {}));
  }

  installed(): Set<string> {
    return new Set(this.read().installed[this.workspace] ?? []);
  }

  /** Merges decisions (plugin dir → decision) into this project's; throws when the store cannot be written. */
  recordDecisions(decisions: Map<string, TrustDecision>): void {
    this.update((data) => {
      const project = (data.projects[this.workspace] ??= {});
      for (const [dir, decision] of decisions) project[dir] = decision;
    });
  }

  recordInstalled(dir: string): void {
    this.update((data) => {
      const list = new Set(data.installed[this.workspace] ?? []);
      list.add(dir);
      data.installed[this.workspace] = [...list].sort();
    });
  }

  private update(change: (data: TrustData) => void): void {
    this.file.update(change);
  }

  /** A missing or unreadable store is an empty one (every project plugin undecided), as upstream's `load`. */
  private read(): TrustData {
    return this.file.read();
  }
}

function trustData(raw: unknown): TrustData {
  const v = (isRecord(raw) ? raw : {}) as Partial<TrustData>;
  return {
    projects: isRecord(v.projects) ? (v.projects as TrustData['projects']) : {},
    installed: isRecord(v.installed) ? (v.installed as TrustData['installed']) : {},
  };
}

function isRecord(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
