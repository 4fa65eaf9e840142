/**
 * The bounded walk that finds rules files: breadth-first from the workspace root, at most MAX_WALK_DEPTH folders deep
 * and MAX_WALK_DIRS folders in all, never into node_modules or a dot-folder (.git, .catalyst-code's worktrees, caches),
 * never through a symlinked folder, pruning what .gitignore ignores. Each folder's listing is kept with its mtime, so a
 * walk over an unchanged tree costs one stat per folder (and one per .gitignore). Every read is asynchronous, WALK_BATCH
 * folders at a time, so a big tree never holds up the core's other commands and streams.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readDirSortedAsync, walkBreadthFirst, WORKSPACE_SKIPPED_DIRS } from '../platform/treeWalk';

export const MAX_WALK_DEPTH = 8;
export const MAX_WALK_DIRS = 4000;
/** Folders read at once: enough to keep the I/O threads busy, few enough that handling one batch takes well under a ms. */
const WALK_BATCH = 32;

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

  async walk(): Promise<WalkResult> {
    const files: WalkedFile[] = [];
    let tooDeep = false;
    const root: Frame = { abs: this.root, rel: '.', depth: 0, ignores: await this.rootIgnores() };
    const { visited, limited } = await walkBreadthFirst(root, {
      maxDirs: MAX_WALK_DIRS,
      batch: WALK_BATCH,
      read: async (frame) => {
        const { listing, gitignore } = await this.folder(frame.abs);
        return listing && { listing, gitignore };
      },
      visit: (frame, { listing, gitignore }) => {
        const ignores = listing.hasGitignore ? withRules(frame, gitignore) : frame.ignores;
        for (const name of listing.files) {
          const rel = joinRel(frame.rel, name);
          files.push({ rel, dir: frame.rel, name, gitignored: isIgnored(ignores, rel, false) });
        }
        const subfolders: Frame[] = [];
        for (const name of listing.subdirs) {
          const rel = joinRel(frame.rel, name);
          if (isIgnored(ignores, rel, true)) continue;
          if (frame.depth + 1 > MAX_WALK_DEPTH) {
            tooDeep = true;
            continue;
          }
          subfolders.push({ abs: path.join(frame.abs, name), rel, depth: frame.depth + 1, ignores });
        }
        return subfolders;
      },
    });
    const seen = new Set(visited.map((frame) => frame.abs));
    for (const key of this.listings.keys()) if (!seen.has(key)) this.listings.delete(key);
    return { files, limited: limited || tooDeep };
  }

  /** Whether the root's .gitignore (or .git/info/exclude) ignores a workspace-relative path: for the root-only sources. */
  async ignoredAtRoot(rel: string, isDirectory: boolean): Promise<boolean> {
    const frame: Frame = { abs: this.root, rel: '.', depth: 0, ignores: await this.rootIgnores() };
    return isIgnored(withRules(frame, await this.gitignoreOf(this.root)), rel, isDirectory);
  }

  /** A folder's listing and, if it has one, its .gitignore's rules. */
  private async folder(abs: string): Promise<{ listing: Listing | undefined; gitignore: Ignore | undefined }> {
    const listing = await this.listing(abs);
    return { listing, gitignore: listing?.hasGitignore ? await this.gitignoreOf(abs) : undefined };
  }

  private async listing(abs: string): Promise<Listing | undefined> {
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.promises.stat(abs)).mtimeMs;
    } catch {
      this.listings.delete(abs);
      return undefined;
    }
    const cached = this.listings.get(abs);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const listing = await this.readListing(abs, mtimeMs);
    this.listings.set(abs, listing);
    return listing;
  }

  private async readListing(abs: string, mtimeMs: number): Promise<Listing> {
    const listing: Listing = { mtimeMs, subdirs: [], files: [], hasGitignore: false };
    for (const entry of (await readDirSortedAsync(abs)) ?? []) {
      if (entry.isDirectory()) {
        if (!isSkippedFolder(entry.name)) listing.subdirs.push(entry.name);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (this.names.has(entry.name)) listing.files.push(entry.name);
        if (entry.name === '.gitignore') listing.hasGitignore = true;
      }
    }
    return listing;
  }

  private async rootIgnores(): Promise<Frame['ignores']> {
    const exclude = await this.rulesOf(path.join(this.root, '.git', 'info', 'exclude'));
    return exclude ? [{ base: '.', rules: exclude }] : [];
  }

  private gitignoreOf(dirAbs: string): Promise<Ignore | undefined> {
    return this.rulesOf(path.join(dirAbs, '.gitignore'));
  }

  private async rulesOf(file: string): Promise<Ignore | undefined> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      this.gitignores.delete(file);
      return undefined;
    }
    const cached = this.gitignores.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.rules;
    let text = '';
    try {
      text = await fs.promises.readFile(file, 'utf8');
    } catch {
      // An unreadable .gitignore ignores nothing.
    }
    const rules = text.trim() ? ignore().add(text) : undefined;
    this.gitignores.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, rules });
    return rules;
  }
}

/** Besides the workspace's skip rules, every dot-folder: .catalyst-code's worktrees, caches, editors' settings. */
function isSkippedFolder(name: string): boolean {
  return WORKSPACE_SKIPPED_DIRS.has(name) || name.startsWith('.');
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
