import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Files under `root` whose bytes contain `needle` (as UTF-8 or as UTF-16LE, the way some stores keep strings). */
export function filesContaining(root: string, needle: string, opts: { skip?: (path: string) => boolean } = {}): string[] {
  const patterns = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const hits: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (opts.skip?.(path)) continue;
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isSymbolicLink()) continue; // the extensions dir links to the repo; don't wander there
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile() && containsAny(path, patterns)) hits.push(path);
    }
  };
  walk(root);
  return hits;
}

function containsAny(path: string, patterns: Buffer[]): boolean {
  try {
    const bytes = readFileSync(path);
    return patterns.some((p) => bytes.includes(p));
  } catch {
    return false;
  }
}
