import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../platform/atomicWrite';

export type MemoryScope = 'workspace' | 'global';

export interface MemoryEntry {
  id: string;
  text: string;
  tags: string[];
  scope: MemoryScope;
  created_at: number;
}

/**
 * Durable notes injected into the system prompt: one JSON file per memory, under `<ws>/.catalyst-code/memory/` for the
 * workspace scope and `~/.catalyst-code/memory/` for the global one.
 */
export class MemoryStore {
  constructor(private readonly dirs: Record<MemoryScope, string>) {}

  save(text: string, tags: string[] = [], scope: MemoryScope = 'workspace'): MemoryEntry {
    const clean = text.trim();
    if (!clean) throw new Error('memory text is empty');
    const entry: MemoryEntry = { id: memoryId(clean), text: clean, tags, scope, created_at: Date.now() };
    const dir = this.dirs[scope];
    writeFileAtomicSync(join(dir, `${entry.id}.json`), JSON.stringify(entry, null, 2), { newFileMode: 0o644 });
    return entry;
  }

  list(): MemoryEntry[] {
    return (['workspace', 'global'] as const).flatMap((scope) => this.read(scope)).sort((a, b) => a.created_at - b.created_at);
  }

  /** Removes a memory by id (searching both scopes unless one is given); true when something was removed. */
  forget(id: string, scope?: MemoryScope): boolean {
    if (!/^[a-z0-9-]+$/.test(id)) return false;
    let removed = false;
    for (const s of scope ? [scope] : (['workspace', 'global'] as const)) {
      const file = join(this.dirs[s], `${id}.json`);
      if (existsSync(file)) {
        rmSync(file);
        removed = true;
      }
    }
    return removed;
  }

  private read(scope: MemoryScope): MemoryEntry[] {
    const dir = this.dirs[scope];
    if (!existsSync(dir)) return [];
    const out: MemoryEntry[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const e = JSON.parse(readFileSync(join(dir, name), 'utf8')) as MemoryEntry;
        if (typeof e.text === 'string' && typeof e.id === 'string') out.push({ ...e, scope, tags: Array.isArray(e.tags) ? e.tags : [] });
      } catch {
        // A corrupt memory file is skipped rather than failing the whole list.
      }
    }
    return out;
  }
}

function memoryId(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 6);
  return `${slug || 'memory'}-${hash}`;
}
