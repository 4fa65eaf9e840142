/**
 * The bounded walk that finds rules files: breadth-first from the workspace root, at most MAX_WALK_DEPTH folders deep
 * and MAX_WALK_DIRS folders in all, never into node_modules or a dot-folder (.git, .catalyst-code's worktrees, caches),
 * never through a symlinked folder, pruning what .gitignore ignores. Each folder's listing is kept with its mtime, so a
 * walk over an unchanged tree costs one stat per folder (and one per .gitignore).
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const MAX_WALK_DEPTH = 8;
export const MAX_WALK_DIRS = 4000;

/** A file of interest found by the walk. */
export interface WalkedFile {
  /** Workspace-relative, forward slashes. */
  rel: string;
  /** The folder it is in, workspace-relative ("." for the root). */
  dir: string;
  name: string;
  gitignored: boolean;
}

export interface WalkResult {
  files: WalkedFile[];
  limited: boolean;
}

interface Listing {
  mtimeMs: number;
  subdirs: string[];
  /** The names of interest present as files or symlinks (a symlinked folder is neither followed nor listed). */
  files: string[];
  hasGitignore: boolean;
}

interface GitignoreEntry {
  mtimeMs: number;
  size: number;
  rules: Ignore | undefined;
}

interface Frame {
  abs: string;
  rel: string;
  depth: number;
  /** The .gitignore rules of this folder and those above it, each with the folder it is relative to. */
  ignores: ReadonlyArray<{ base: string; rules: Ignore }>;
}

export class RulesWalker {
  private readonly listings = new Map<string, Listing>();
  private readonly gitignores = new Map<string, GitignoreEntry>();

  constructor(
    private readonly root: string,
    private readonly names: ReadonlySet<string>,
  ) {}

  walk(): WalkResult {
    const files: WalkedFile[] = [];
    let limited = false;
    let visited = 0;
    const queue: Frame[] = [{ abs: this.root, rel: '.', depth: 0, ignores: this.rootIgnores() }];
    const seen = new Set<string>();
    for (let i = 0; i < queue.length; i++) {
      const frame = queue[i];
      if (++visited > MAX_WALK_DIRS) {
        limited = true;
        break;
      }
      const listing = this.listing(frame.abs);
      if (!listing) continue;
      seen.add(frame.abs);
      const ignores = listing.hasGitignore ? withRules(frame, this.gitignoreOf(frame.abs)) : frame.ignores;
      for (const name of listing.files) {
        const rel = joinRel(frame.rel, name);
        files.push({ rel, dir: frame.rel, name, gitignored: isIgnored(ignores, rel, false) });
      }
      for (const name of listing.subdirs) {
        const rel = joinRel(frame.rel, name);
        if (isIgnored(ignores, rel, true)) continue;
        if (frame.depth + 1 > MAX_WALK_DEPTH) {
          limited = true;
          continue;
        }
        queue.push({ abs: path.join(frame.abs, name), rel, depth: frame.depth + 1, ignores });
      }
    }
    for (const key of this.listings.keys()) if (!seen.has(key)) this.listings.delete(key);
    return { files, limited };
  }

  /** Whether the root's .gitignore (or .git/info/exclude) ignores a workspace-relative path: for the root-only sources. */
  ignoredAtRoot(rel: string, isDirectory: boolean): boolean {
    const frame: Frame = { abs: this.root, rel: '.', depth: 0, ignores: this.rootIgnores() };
    return isIgnored(withRules(frame, this.gitignoreOf(this.root)), rel, isDirectory);
  }

  private listing(abs: string): Listing | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(abs).mtimeMs;
    } catch {
      this.listings.delete(abs);
      return undefined;
    }
    const cached = this.listings.get(abs);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const listing = this.readListing(abs, mtimeMs);
    this.listings.set(abs, listing);
    return listing;
  }

  private readListing(abs: string, mtimeMs: number): Listing {
    const listing: Listing = { mtimeMs, subdirs: [], files: [], hasGitignore: false };
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return listing;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') listing.subdirs.push(entry.name);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (this.names.has(entry.name)) listing.files.push(entry.name);
        if (entry.name === '.gitignore') listing.hasGitignore = true;
      }
    }
    return listing;
  }

  private rootIgnores(): Frame['ignores'] {
    const exclude = this.rulesOf(path.join(this.root, '.git', 'info', 'exclude'));
    return exclude ? [{ base: '.', rules: exclude }] : [];
  }

  private gitignoreOf(dirAbs: string): Ignore | undefined {
    return this.rulesOf(path.join(dirAbs, '.gitignore'));
  }

  private rulesOf(file: string): Ignore | undefined {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      this.gitignores.delete(file);
      return undefined;
    }
    const cached = this.gitignores.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.rules;
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // An unreadable .gitignore ignores nothing.
    }
    const rules = text.trim() ? ignore().add(text) : undefined;
    this.gitignores.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, rules });
    return rules;
  }
}

function withRules(frame: Frame, rules: Ignore | undefined): Frame['ignores'] {
  return rules ? [...frame.ignores, { base: frame.rel, rules }] : frame.ignores;
}

function isIgnored(ignores: Frame['ignores'], rel: string, isDirectory: boolean): boolean {
  return ignores.some(({ base, rules }) => {
    const below = base === '.' ? rel : rel.slice(base.length + 1);
    return rules.ignores(below + (isDirectory ? '/' : ''));
  });
}

function joinRel(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}
