/**
 * Fuzzy ranking of workspace paths for `@` completion: the query's characters in order (case-insensitive), scored higher
 * for matches in the file name, at word boundaries and in runs. Pure so it is unit-tested.
 */

export interface RankedPath {
  path: string;
  score: number;
}

export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const p = path.toLowerCase();
  const nameStart = path.lastIndexOf('/') + 1;
  let score = 0;
  let qi = 0;
  let previous = -2;
  for (let pi = 0; pi < p.length && qi < q.length; pi++) {
    if (p[pi] !== q[qi]) continue;
    score += 1;
    if (pi === previous + 1) score += 4;
    if (pi >= nameStart) score += 2;
    if (pi === 0 || '/._- '.includes(path[pi - 1]) || isCamelBoundary(path, pi)) score += 3;
    previous = pi;
    qi++;
  }
  if (qi < q.length) return undefined;
  if (path.slice(nameStart).toLowerCase().startsWith(q)) score += 10;
  return score - path.length * 0.01;
}

function isCamelBoundary(s: string, i: number): boolean {
  return i > 0 && /[a-z]/.test(s[i - 1]) && /[A-Z]/.test(s[i]);
}

export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  const ranked: RankedPath[] = [];
  for (const path of paths) {
    const score = fuzzyScore(query, path);
    if (score !== undefined) ranked.push({ path, score });
  }
  ranked.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return ranked.slice(0, limit).map((r) => r.path);
}
