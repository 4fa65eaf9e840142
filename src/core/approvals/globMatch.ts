// The two pattern languages of permission rules: path globs and plain wildcards.
import picomatch from 'picomatch';
import { posix } from 'node:path';

/** Forward slashes, no leading `./`, `.` and `..` segments resolved lexically. */
export function normalizeRelPath(p: string): string {
  const n = posix.normalize(p.replace(/\\/g, '/'));
  return n.startsWith('./') ? n.slice(2) : n;
}

/** True if a normalized path leaves its base directory (`..` or `../x`). */
export function escapesBase(normalized: string): boolean {
  return normalized === '..' || normalized.startsWith('../');
}

/** A path glob (picomatch, dotfiles included): `*` stays within a segment, `**` crosses them. */
export function pathGlobMatches(pattern: string, path: string): boolean {
  try {
    return picomatch.isMatch(normalizeRelPath(path), normalizeRelPath(pattern), { dot: true });
  } catch {
    return false;
  }
}

/** Whole-string match where `*` is any run of characters (slashes included) and `?` one character. */
export function wildcardMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
