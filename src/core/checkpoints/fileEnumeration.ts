import path from 'node:path';
import { lstatOrUndefined } from '../platform/fileStat';
import { skippingAlso, walkTree } from '../platform/treeWalk';
import { runGit, splitNul } from '../platform/gitRunner';
import { isWithinAnyScope, isWithinScope } from './relPath';
import { fullPath, type SnapshotStore } from './snapshotStore';

/**
 * Directory names whose untracked contents are never snapshotted, at any depth: dependency trees, build outputs,
 * virtual environments and caches. Tracked files inside them (a committed `dist/`) are still captured. A restore never
 * deletes anything in them either, because what is not enumerated can never be "added since the checkpoint".
 */
export const BUILD_OUTPUT_DIRS: readonly string[] = [
  'node_modules',
  'bower_components',
  'jspm_packages',
  'dist',
  'out',
  'build',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.nox',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.angular',
  '.gradle',
  '.dart_tool',
  'coverage',
  '.nyc_output',
  '.terraform',
  '.cache',
  '.catalyst-code',
];

/** How deep nested repositories are followed (a repository inside a repository inside …). */
const MAX_NESTING = 8;

export interface EnumerateOptions {
  /** Workspace-relative scopes; empty = the whole workspace. */
  scopes: string[];
  /** Workspace-relative paths never captured (our own state). */
  excluded: readonly string[];
  maxFileBytes: number;
  signal?: AbortSignal;
  /**
   * Resolves to top-relative files known to exist unchanged since the cached snapshot (so they are within the size
   * limit); those are taken without an lstat. Absent or undefined: every file is checked.
   */
  clean?: Promise<ReadonlySet<string> | undefined>;
}

export interface Enumeration {
  /** Top-relative paths of the regular files and symlinks a snapshot holds, sorted, unique. */
  files: string[];
  /** The subset of `files` that were not known clean: new or changed since the cached snapshot. */
  checked: string[];
  /** Top-relative files left out because they are larger than the limit. */
  skipped: string[];
  /** Top-relative roots of the nested repositories whose files were included. */
  nested: string[];
}

function buildOutputExcludes(): string[] {
  return BUILD_OUTPUT_DIRS.flatMap((dir) => ['-x', `${dir}/`]);
}

function isNestedRepoRoot(abs: string): boolean {
  return lstatOrUndefined(path.join(abs, '.git')) !== undefined;
}

/** One entry of `git ls-files -s -c -o`: a path, and whether the index has it as a gitlink (a submodule). */
interface Listed {
  path: string;
  gitlink: boolean;
}

const STAGED_LINE = /^([0-7]{6}) [0-9a-f]{40,64} [0-3]\t/;

/**
 * Files of one repository (tracked, plus untracked that neither its ignore rules nor BUILD_OUTPUT_DIRS exclude), as
 * paths relative to `cwd`. Untracked entries ending in '/' are nested repositories git will not look into.
 */
async function listRepoFiles(cwd: string, env: Record<string, string>, specs: string[], signal?: AbortSignal): Promise<Listed[]> {
  const args = ['ls-files', '-z', '-s', '-c', '-o', '--exclude-standard', ...buildOutputExcludes(), '--', ...specs];
  return splitNul((await runGit(args, { cwd, env, signal })).stdout).map((line) => {
    const staged = STAGED_LINE.exec(line);
    return staged ? { path: line.slice(staged[0].length), gitlink: staged[1] === '160000' } : { path: line, gitlink: false };
  });
}

/** A nested repository that git cannot list (broken .git): its files and symlinks by a plain walk, minus build outputs. */
function walkFiles(root: string): string[] {
  return walkTree(root, '', { skipDirNames: skippingAlso(BUILD_OUTPUT_DIRS), includeSymlinks: true }).files;
}

class Enumerator {
  readonly files = new Set<string>();
  readonly checked: string[] = [];
  readonly skipped: string[] = [];
  readonly nested: string[] = [];

  constructor(
    private readonly store: SnapshotStore,
    private readonly opts: EnumerateOptions,
    private readonly fullScopes: string[],
    private readonly fullExcluded: string[],
    private readonly clean: ReadonlySet<string> | undefined,
  ) {}

  private inScope(full: string): boolean {
    return isWithinAnyScope(full, this.fullScopes) && !this.fullExcluded.some((ex) => isWithinScope(full, ex));
  }

  /** Whether anything under the directory `full` can be in scope (it is inside a scope, or a scope is inside it). */
  private mayContainScope(full: string): boolean {
    if (this.fullExcluded.some((ex) => isWithinScope(full, ex))) return false;
    return this.fullScopes.length === 0 || this.fullScopes.some((scope) => isWithinScope(full, scope) || isWithinScope(scope, full));
  }

  /** Adds the entries git listed under `base` (top-relative, '' or 'dir/'). */
  async addListed(base: string, listed: Listed[], depth: number): Promise<void> {
    for (const entry of listed) {
      const full = base + entry.path.replace(/\/$/, '');
      if (this.files.has(full)) continue; // a conflicted path is listed once per stage
      if (entry.gitlink || entry.path.endsWith('/')) {
        // A submodule (a tracked gitlink) or an embedded repository (untracked 'dir/'): include its files.
        const abs = path.join(this.store.top, full);
        if (depth < MAX_NESTING && this.mayContainScope(full) && lstatOrUndefined(abs)?.isDirectory() && isNestedRepoRoot(abs)) {
          await this.addNestedRepo(full, depth + 1);
        }
        continue;
      }
      if (!this.inScope(full)) continue;
      if (this.clean?.has(full)) {
        this.files.add(full);
        continue;
      }
      const st = lstatOrUndefined(path.join(this.store.top, full));
      if (!st || st.isDirectory()) continue; // tracked but deleted, or replaced by a directory
      if (st.isFile() && st.size > this.opts.maxFileBytes) {
        this.skipped.push(full);
      } else if (st.isFile() || st.isSymbolicLink()) {
        this.files.add(full);
        this.checked.push(full);
      }
    }
  }

  private async addNestedRepo(full: string, depth: number): Promise<void> {
    this.nested.push(full);
    const abs = path.join(this.store.top, full);
    let listed: Listed[];
    try {
      listed = await listRepoFiles(abs, {}, [], this.opts.signal);
    } catch (err) {
      if (this.opts.signal?.aborted) throw err;
      listed = walkFiles(abs).map((p) => ({ path: p, gitlink: false }));
    }
    await this.addListed(full + '/', listed, depth);
  }
}

/**
 * What a snapshot of the workspace holds right now. In a repo store, tracked files come from the user's index (read
 * only) and untracked ones from git's ignore rules; in the shadow store every file is untracked, and the workspace's
 * own .gitignore files (and the user's global excludes) still apply. Nested repositories are listed by their own git,
 * with their own ignore rules, and their files included as ordinary files (never as a gitlink).
 * `emptyIndex` is a path where no file exists (the shadow store lists against it).
 */
export async function enumerateWorkspace(store: SnapshotStore, opts: EnumerateOptions, emptyIndex: string): Promise<Enumeration> {
  const fullScopes = opts.scopes.length ? opts.scopes.map((rel) => fullPath(store, rel)) : store.prefix ? [fullPath(store, '')] : [];
  const fullExcluded = opts.excluded.map((rel) => fullPath(store, rel));
  // The shadow store lists against an empty index: everything is "untracked", so only ignore rules decide.
  const env = store.kind === 'shadow' ? { ...store.env, GIT_INDEX_FILE: emptyIndex } : store.env;
  // Scopes are applied while adding, not as pathspecs: a scope inside a nested repository is invisible to a pathspec.
  const root = store.prefix ? `:(literal)${fullPath(store, '')}` : '.';
  const specs = [root, ...fullExcluded.map((full) => `:(exclude,literal)${full}`)];
  const [listed, clean] = await Promise.all([listRepoFiles(store.top, env, specs, opts.signal), opts.clean ?? Promise.resolve(undefined)]);
  const e = new Enumerator(store, opts, fullScopes, fullExcluded, clean);
  await e.addListed('', listed, 0);
  return { files: [...e.files].sort(), checked: e.checked, skipped: e.skipped.sort(), nested: e.nested.sort() };
}
