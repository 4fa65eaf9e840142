/**
 * A child's git worktree (`subagent{worktree:true}`): added from HEAD under `<ws>/.catalyst-code/worktrees/<name>` on
 * branch `catcode/wt/<name>`, seeded with the main tree's uncommitted state, and removed with its branch when the child
 * ends. The name is upstream's safe run id followed by the core's pid and start time: run ids are counted per process,
 * so two cores on one workspace would otherwise share `run-1`'s path and branch. The seed records a baseline (a digest
 * per file, and the seeded files' base copies) so that promote.ts can tell what the child changed and what the user
 * changed meanwhile.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EventType, Unstamped } from '../../protocol';
import { makeScratchDir, ownScratchTag, removeScratchDir, tagOwnerGone } from '../platform/scratchDirs';
import {
  gitOutput,
  listFiles,
  mapInBatches,
  readPathState,
  runGit,
  sameState,
  stateDigest,
  writePathState,
  type PathState,
} from './worktreeGit';

export const WORKTREE_REQUIRES_GIT = 'worktree:true requires a git repository; use hybrid checkpoints for non-git workspaces';

/** Workspace-relative. */
export const WORKTREES_DIR = '.catalyst-code/worktrees';
const BRANCH_PREFIX = 'catcode/wt/';
/** A marker directory `.owner-<name>.<pid tag>-XXXXXX` beside a worktree names the core that uses it. */
const OWNER_PREFIX = '.owner-';
const BASE_COPIES_PREFIX = 'catcode-wt-base-';

type EventWithRunId<T extends EventType> = Extract<Unstamped<'protocol_version' | 'session_id' | 'sequence'>, { type: T }>;

/** Each carries the child's run_id (but worktree_cleaned, which has only the path): emit them in the calling run, keeping it. */
export type WorktreeEvent = EventWithRunId<'worktree_ready' | 'worktree_seeded' | 'worktree_promoted' | 'worktree_cleaned'>;
export type EmitWorktreeEvent = (event: WorktreeEvent) => void;

/** The main tree as the child's worktree started from it. */
export interface Baseline {
  /** Workspace-relative path → digest of its content at the seed; a path missing then has no entry. */
  digests: Map<string, string>;
  /** The paths whose base is not HEAD's version (seeded from the main tree): their copies are in `copiesDir`. */
  seeded: Set<string>;
  copiesDir: string;
}

export interface Worktree {
  runId: string;
  /** Absolute: the worktree's top directory, as in `worktree_ready.path`. */
  path: string;
  branch: string;
  /** Absolute: the child's workspace, the worktree's counterpart of `mainRoot` (which may lie below the repository's top). */
  root: string;
  /** Absolute: the parent's workspace. */
  mainRoot: string;
  /** The commit the worktree was added at. */
  head: string;
  baseline: Baseline;
  ownerMarker: string;
  /** Top-level dependency folders linked to the main tree's (linkDependencyDirs): never mirrored, proposed or listed. */
  linked: string[];
}

export class WorktreeError extends Error {}

/**
 * The checkout of a new worktree runs no hooks (a post-checkout hook may install dependencies or touch the main tree)
 * and fetches no LFS objects (a network round trip per file): the seed copies the main tree's real contents over.
 */
const CHECKOUT_ENV: NodeJS.ProcessEnv = { GIT_LFS_SKIP_SMUDGE: '1' };

/** Characters outside `[A-Za-z0-9_-]` become `-` (upstream's safe id). */
export function safeWorktreeId(runId: string): string {
  return runId.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** The worktree's name (its folder and branch) for one of this core's runs: unique among the cores on a workspace. */
export function worktreeName(runId: string): string {
  return `${safeWorktreeId(runId)}-${ownScratchTag()}`;
}

export async function isGitWorkTree(workspace: string): Promise<boolean> {
  const run = await runGit(workspace, ['rev-parse', '--is-inside-work-tree']).catch(() => undefined);
  return run?.code === 0 && run.stdout.toString('utf8').trim() === 'true';
}

let lockTail: Promise<unknown> = Promise.resolve();

/** Every `git worktree` and branch operation of this process runs one at a time (they lock the repository's metadata). */
function withWorktreeLock<T>(op: () => Promise<T>): Promise<T> {
  const run = lockTail.then(op, op);
  lockTail = run.catch(() => undefined);
  return run;
}

/**
 * Adds and seeds one worktree for `runId`, emitting `worktree_ready` and, if anything was mirrored, `worktree_seeded`.
 * Throws a WorktreeError (`worktree setup failed: …`, `worktree seed failed: …`) after removing what it made.
 */
export async function createWorktree(workspace: string, runId: string, emit: EmitWorktreeEvent, forTask = ''): Promise<Worktree> {
  if (!(await isGitWorkTree(workspace))) throw new WorktreeError(WORKTREE_REQUIRES_GIT);
  let wt: Worktree;
  try {
    wt = await withWorktreeLock(() => addWorktree(workspace, runId));
  } catch (error) {
    throw new WorktreeError(`worktree setup failed${forTask}: ${message(error)}`);
  }
  emit({ type: 'worktree_ready', run_id: runId, path: wt.path, branch: wt.branch });
  try {
    const paths = await seedWorktree(wt);
    if (paths.length) emit({ type: 'worktree_seeded', run_id: runId, paths });
    wt.linked = await linkDependencyDirs(wt);
  } catch (error) {
    await removeWorktree(wt, emit);
    throw new WorktreeError(`worktree seed failed${forTask}: ${message(error)}`);
  }
  return wt;
}

/** A parallel batch's worktrees, all made before any child starts; if one fails, those made are removed and it throws. */
export async function createWorktrees(workspace: string, runIds: string[], emit: EmitWorktreeEvent): Promise<Worktree[]> {
  const made: Worktree[] = [];
  try {
    for (const [i, runId] of runIds.entries()) made.push(await createWorktree(workspace, runId, emit, ` for task ${i}`));
    return made;
  } catch (error) {
    for (const wt of made) await removeWorktree(wt, emit);
    throw error;
  }
}

async function addWorktree(workspace: string, runId: string): Promise<Worktree> {
  const safe = worktreeName(runId);
  const top = await gitOutput(workspace, ['rev-parse', '--show-toplevel']);
  const prefix = await gitOutput(workspace, ['rev-parse', '--show-prefix']);
  const head = await gitOutput(workspace, ['rev-parse', '--verify', 'HEAD^{commit}']);
  const parent = path.join(workspace, WORKTREES_DIR);
  const wtPath = path.join(parent, safe);
  const branch = `${BRANCH_PREFIX}${safe}`;
  await fs.mkdir(parent, { recursive: true });
  await ignoreWorktreesDir(parent);
  const owners = await ownerMarkers(parent, safe);
  if (owners.some((m) => !ownerGone(m))) throw new Error(`${wtPath} is in use by another run`);
  if (owners.length > 0) await removeLeftover(workspace, wtPath, branch, owners);
  const ownerMarker = makeScratchDir(parent, ownerPrefix(safe));
  try {
    await gitOutput(top, ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--quiet', '-B', branch, wtPath, head], CHECKOUT_ENV);
  } catch (error) {
    removeScratchDir(ownerMarker);
    throw error;
  }
  const copiesDir = makeScratchDir(os.tmpdir(), BASE_COPIES_PREFIX);
  return {
    runId,
    path: wtPath,
    branch,
    root: path.resolve(wtPath, prefix),
    mainRoot: workspace,
    head,
    baseline: { digests: new Map(), seeded: new Set(), copiesDir },
    ownerMarker,
    linked: [],
  };
}

/**
 * A `.gitignore` of `*` in the worktrees directory: the main tree's git status, grep and glob (which honour .gitignore
 * files) and editors' searches then leave the children's copies of the tree out.
 */
async function ignoreWorktreesDir(parent: string): Promise<void> {
  await fs.writeFile(path.join(parent, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

/**
 * Mirrors the main tree into the worktree (what git shows: tracked and unignored files), deleting the checked-out
 * files the main tree no longer has; records the baseline. Returns the mirrored paths (`deleted:<rel>` for deletions).
 */
async function seedWorktree(wt: Worktree): Promise<string[]> {
  const mirrored = await mapInBatches(await listFiles(wt.mainRoot), (rel) => mirrorOne(wt, rel));
  const extras = (await listFiles(wt.root)).filter((rel) => !wt.baseline.digests.has(rel));
  await mapInBatches(extras, (rel) => fs.rm(path.join(wt.root, rel), { force: true }));
  for (const rel of extras) wt.baseline.seeded.add(rel);
  return [...mirrored.filter((rel): rel is string => rel !== undefined), ...extras.map((rel) => `deleted:${rel}`)];
}

/**
 * The ignored folders a checkout lacks but a child's `npm test` or `pytest` needs, linked rather than copied: a
 * symlink costs nothing whatever the folder's size. Only these well-known dependency folders, at the workspace's top,
 * and only when git ignores them there (a tracked `vendor/` is checked out already); build outputs are left for the
 * child to rebuild. The links are read-only by convention: the child's file tools refuse a path through them (it
 * resolves outside its workspace), but a command it runs (an `npm install`) would change the user's folder.
 */
export const LINKED_DEPENDENCY_DIRS: readonly string[] = ['node_modules', '.venv', 'venv', 'vendor', 'bower_components'];

async function linkDependencyDirs(wt: Worktree): Promise<string[]> {
  const linked: string[] = [];
  for (const name of LINKED_DEPENDENCY_DIRS) {
    const target = path.join(wt.mainRoot, name);
    const link = path.join(wt.root, name);
    const isDir = await fs.stat(target).then(
      (st) => st.isDirectory(),
      () => false,
    );
    if (
      !isDir ||
      (await fs.lstat(link).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const ignored = await runGit(wt.mainRoot, ['check-ignore', '-q', '--', name]).catch(() => undefined);
    if (ignored?.code !== 0) continue;
    await fs.symlink(target, link, 'dir');
    linked.push(name);
  }
  return linked;
}

/** Whether a worktree-relative path is one of its dependency links or below one. */
export function isLinkedPath(wt: Worktree, rel: string): boolean {
  return wt.linked.some((name) => rel === name || rel.startsWith(`${name}/`));
}

/** Records one main-tree file in the baseline and copies it into the worktree if it differs there; its path if copied. */
async function mirrorOne(wt: Worktree, rel: string): Promise<string | undefined> {
  const main = await readPathState(path.join(wt.mainRoot, rel));
  const digest = stateDigest(main);
  // A tracked file deleted in the main tree: seedWorktree deletes it from the worktree as an extra.
  if (digest === undefined) return undefined;
  wt.baseline.digests.set(rel, digest);
  if (sameState(main, await readPathState(path.join(wt.root, rel)))) return undefined;
  await writePathState(path.join(wt.root, rel), main);
  await writePathState(path.join(wt.baseline.copiesDir, rel), main);
  wt.baseline.seeded.add(rel);
  return rel;
}

/** The content `rel` had in the main tree when the worktree was seeded (missing when it had none). */
export async function baseState(wt: Worktree, rel: string): Promise<PathState> {
  if (!wt.baseline.digests.has(rel)) return { kind: 'missing' };
  if (wt.baseline.seeded.has(rel)) return readPathState(path.join(wt.baseline.copiesDir, rel));
  // Not seeded: the main tree had HEAD's version, which git keeps (with the checkout's filters applied).
  const run = await runGit(wt.root, ['cat-file', '--filters', `${wt.head}:./${rel}`]);
  if (run.code !== 0) throw new Error(run.stderr || `no base version of ${rel}`);
  return { kind: 'file', bytes: run.stdout };
}

/**
 * Removes the worktree (`git worktree remove --force`, else rm + prune), its branch and its base copies, and emits
 * `worktree_cleaned`. Never throws: whatever is left over is swept at the next core start.
 */
export async function removeWorktree(wt: Worktree, emit: EmitWorktreeEvent): Promise<void> {
  await withWorktreeLock(() => removeLeftover(wt.mainRoot, wt.path, wt.branch, [wt.ownerMarker])).catch(() => undefined);
  removeScratchDir(wt.baseline.copiesDir);
  emit({ type: 'worktree_cleaned', path: wt.path });
}

async function removeLeftover(workspace: string, wtPath: string, branch: string, ownerMarkers: string[]): Promise<void> {
  const removed = await runGit(workspace, ['worktree', 'remove', '--force', wtPath]).catch(() => undefined);
  if (removed?.code !== 0) {
    await fs.rm(wtPath, { recursive: true, force: true });
    await runGit(workspace, ['worktree', 'prune']).catch(() => undefined);
  }
  await runGit(workspace, ['branch', '-D', '--quiet', branch]).catch(() => undefined);
  for (const marker of ownerMarkers) removeScratchDir(marker);
}

/**
 * At core start: removes the worktrees, branches and markers that a core killed half-way left behind in this
 * workspace — those whose every owner marker names a core that has ended. A worktree of a core still running here is
 * kept however old, and so is one with no marker (its owner unknown: another tool's, or upstream's core). Taken under
 * the worktree lock at once, so this core's own worktrees are made only after it.
 */
export function sweepWorktrees(workspace: string): Promise<void> {
  const parent = path.join(workspace, WORKTREES_DIR);
  return withWorktreeLock(async () => {
    const names = await fs.readdir(parent).catch(() => [] as string[]);
    const ids = new Set(names.map((n) => (n.startsWith(OWNER_PREFIX) ? ownerSafeId(n) : undefined)));
    for (const safe of ids) {
      if (!safe) continue;
      const owners = await ownerMarkers(parent, safe);
      if (owners.length === 0 || !owners.every(ownerGone)) continue;
      await removeLeftover(workspace, path.join(parent, safe), `${BRANCH_PREFIX}${safe}`, owners);
    }
  }).catch(() => undefined);
}

/** Whether an owner marker names a core that has ended (a marker whose name is no tag counts as live: kept). */
function ownerGone(marker: string): boolean {
  const name = path.basename(marker);
  const dot = name.indexOf('.', OWNER_PREFIX.length);
  return tagOwnerGone(name.slice(dot + 1)) === true;
}

function ownerPrefix(safe: string): string {
  return `${OWNER_PREFIX}${safe}.`;
}

/** The safe id a marker name is for (safe ids have no `.`). */
function ownerSafeId(name: string): string | undefined {
  return /^\.owner-([A-Za-z0-9_-]+)\./.exec(name)?.[1];
}

async function ownerMarkers(parent: string, safe: string): Promise<string[]> {
  const names = await fs.readdir(parent).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(ownerPrefix(safe))).map((n) => path.join(parent, n));
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The marker tag of this process, for tests. */
export const ownerTag = ownScratchTag;
