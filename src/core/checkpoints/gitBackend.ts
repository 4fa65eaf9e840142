import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyFilePlan } from './applyFilePlan';
import { runGit, splitNul } from './gitRunner';
import type { GitWorkspace } from './gitWorkspace';
import { isWithinAnyScope, isWithinScope } from './relPath';
import type { CheckpointFileChange, RestoreResult } from './types';

export const CHECKPOINT_REF_PREFIX = 'refs/catcode/checkpoints/';

/** Snapshot commits are made without the user's identity or config, so they work in any repository. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Catalyst Code',
  GIT_AUTHOR_EMAIL: 'checkpoints@catalyst-code.invalid',
  GIT_COMMITTER_NAME: 'Catalyst Code',
  GIT_COMMITTER_EMAIL: 'checkpoints@catalyst-code.invalid',
};

const GITLINK_MODE = '160000';

/** What a git checkpoint covers, in workspace-relative paths. */
export interface GitScope {
  repo: GitWorkspace;
  /** Empty = the whole workspace. */
  scopes: string[];
  /** Never captured nor restored (our own state directory). */
  excluded: string[];
  maxFileBytes: number;
}

interface TreeDiff {
  modified: string[];
  missing: string[];
  added: string[];
}

function fullPath(repo: GitWorkspace, rel: string): string {
  return (repo.prefix + rel).replace(/\/$/, '');
}

function workspaceRel(repo: GitWorkspace, full: string): string {
  return full.slice(repo.prefix.length);
}

function includeSpec(repo: GitWorkspace, rel: string): string {
  const full = fullPath(repo, rel);
  return full === '' ? '.' : `:(literal)${full}`;
}

function excludeSpecs(repo: GitWorkspace, rels: string[]): string[] {
  return rels.map((rel) => `:(exclude,literal)${fullPath(repo, rel)}`);
}

function pathspecs(s: GitScope, scopes = s.scopes): string[] {
  return [...(scopes.length ? scopes : ['']).map((rel) => includeSpec(s.repo, rel)), ...excludeSpecs(s.repo, s.excluded)];
}

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-'));
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function gitText(repo: GitWorkspace, args: string[], env?: Record<string, string>): Promise<string> {
  return (await runGit(args, { cwd: repo.top, env })).stdout.toString('utf8').trim();
}

async function gitList(repo: GitWorkspace, args: string[], env?: Record<string, string>): Promise<string[]> {
  return splitNul((await runGit(args, { cwd: repo.top, env })).stdout);
}

async function headCommit(repo: GitWorkspace): Promise<string> {
  const { stdout } = await runGit(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], { cwd: repo.top, okCodes: [0, 1] });
  return stdout.toString('utf8').trim();
}

/**
 * For a paths-only checkpoint, the scopes `git add` can take: tracked, or present and not ignored.
 * (git refuses a pathspec that matches nothing or only ignored files.) The others are still part of
 * the checkpoint's scope: absent at checkpoint time, so a restore removes them if they appear.
 */
async function addableScopes(s: GitScope, env: Record<string, string>): Promise<string[]> {
  if (s.scopes.length === 0) return [];
  const tracked = await gitList(s.repo, ['ls-files', '-z', '--', ...pathspecs(s)], env);
  const present = s.scopes.filter((rel) => lstatOrUndefined(path.join(s.repo.top, fullPath(s.repo, rel))));
  const { stdout } = await runGit(['check-ignore', '-z', '--stdin'], {
    cwd: s.repo.top,
    env,
    okCodes: [0, 1],
    input: present.map((rel) => fullPath(s.repo, rel)).join('\0'),
  });
  const ignored = new Set(splitNul(stdout));
  return s.scopes.filter((rel) => {
    const full = fullPath(s.repo, rel);
    return tracked.some((t) => isWithinScope(t, full)) || (present.includes(rel) && !ignored.has(full));
  });
}

/** Untracked, not ignored files above the size limit: left out of snapshots so huge files never enter the object store. */
async function largeUntracked(s: GitScope, specs: string[], env: Record<string, string>): Promise<string[]> {
  const untracked = await gitList(s.repo, ['ls-files', '-z', '-o', '--exclude-standard', '--', ...specs], env);
  return untracked.filter((full) => (lstatOrUndefined(path.join(s.repo.top, full))?.size ?? 0) > s.maxFileBytes);
}

/**
 * Snapshots the work tree into a commit stored as refs/catcode/checkpoints/<id>, using a copy of the
 * user's index so the real index, HEAD, branches and stash list are never touched.
 */
export async function createGitSnapshot(s: GitScope, id: string, label: string): Promise<{ head_sha: string; stash_sha: string }> {
  return withTempDir(async (tmp) => {
    const index = path.join(tmp, 'index');
    if (fs.existsSync(s.repo.indexFile)) fs.copyFileSync(s.repo.indexFile, index);
    const env = { GIT_INDEX_FILE: index };
    const scopes = s.scopes.length ? await addableScopes(s, env) : [''];
    if (scopes.length > 0) {
      const specs = pathspecs(s, scopes);
      const large = await largeUntracked(s, specs, env);
      const specFile = path.join(tmp, 'pathspecs');
      fs.writeFileSync(specFile, [...specs, ...large.map((full) => `:(exclude,literal)${full}`)].join('\0'));
      await runGit(['add', '-A', `--pathspec-from-file=${specFile}`, '--pathspec-file-nul'], { cwd: s.repo.top, env });
    }
    const tree = await gitText(s.repo, ['write-tree'], env);
    const head = await headCommit(s.repo);
    const parent = head ? ['-p', head] : [];
    const commit = await gitText(s.repo, ['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', label], { ...env, ...CHECKPOINT_IDENTITY });
    await runGit(['update-ref', CHECKPOINT_REF_PREFIX + id, commit], { cwd: s.repo.top });
    return { head_sha: head, stash_sha: commit };
  });
}

function parseRawDiff(raw: string[]): { modified: string[]; missing: string[] } {
  const modified: string[] = [];
  const missing: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [srcMode, , , , status] = raw[i].slice(1).split(' ');
    if (srcMode === GITLINK_MODE) continue;
    if (status.startsWith('D')) missing.push(raw[i + 1]);
    else if (status.startsWith('M') || status.startsWith('T')) modified.push(raw[i + 1]);
  }
  return { modified, missing };
}

/**
 * How the work tree differs from the checkpoint, with `index` loaded from the checkpoint tree.
 * Porcelain `git diff` compares contents where stat data differ, so unchanged files are not reported.
 * "added" = tracked or untracked-not-ignored files now present that the checkpoint does not have.
 */
async function diffAgainstCheckpoint(s: GitScope, commit: string, scopes: string[], index: string): Promise<TreeDiff> {
  const env = { GIT_INDEX_FILE: index };
  const specs = pathspecs(s, scopes);
  await runGit(['read-tree', commit], { cwd: s.repo.top, env });
  const raw = await gitList(
    s.repo,
    ['diff', '--raw', '-z', '--no-color', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules=all', '--', ...specs],
    env,
  );
  const { modified, missing } = parseRawDiff(raw);
  const inCheckpoint = new Set(await gitList(s.repo, ['ls-files', '-z', '--', ...specs], env));
  const tracked = await gitList(s.repo, ['ls-files', '-z', '-c', '--', ...specs]);
  const untracked = await gitList(s.repo, ['ls-files', '-z', '-o', '--exclude-standard', '--', ...specs]);
  const isNewFile = (full: string, sizeLimited: boolean) => {
    const st = inCheckpoint.has(full) ? undefined : lstatOrUndefined(path.join(s.repo.top, full));
    return !!st && !st.isDirectory() && (!sizeLimited || st.size <= s.maxFileBytes);
  };
  const added = new Set([...tracked.filter((f) => isNewFile(f, false)), ...untracked.filter((f) => isNewFile(f, true))]);
  const toRel = (list: Iterable<string>) => [...list].map((full) => workspaceRel(s.repo, full)).sort();
  return { modified: toRel(modified), missing: toRel(missing), added: toRel(added) };
}

function narrowScopes(s: GitScope, onlyRel: string | undefined): string[] {
  if (onlyRel === undefined) return s.scopes;
  if (!isWithinAnyScope(onlyRel, s.scopes) || s.excluded.some((ex) => isWithinScope(onlyRel, ex))) {
    throw new Error(`${onlyRel} is not covered by this checkpoint`);
  }
  return [onlyRel];
}

export async function gitChangedFiles(s: GitScope, commit: string): Promise<CheckpointFileChange[]> {
  return withTempDir(async (tmp) => {
    const diff = await diffAgainstCheckpoint(s, commit, s.scopes, path.join(tmp, 'index'));
    const changes: CheckpointFileChange[] = [
      ...diff.modified.map((p) => ({ path: p, status: 'modified' as const })),
      ...diff.missing.map((p) => ({ path: p, status: 'deleted' as const })),
      ...diff.added.map((p) => ({ path: p, status: 'added' as const })),
    ];
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}

function assertStaged(stageDir: string, repo: GitWorkspace, rels: string[]): void {
  for (const rel of rels) {
    if (!lstatOrUndefined(path.join(stageDir, fullPath(repo, rel)))) {
      throw new Error(`git could not check out ${rel} from the checkpoint`);
    }
  }
}

/**
 * Makes the work tree (within scope, or just `onlyRel`) match the checkpoint. Files are checked out of a
 * temp index into a staging directory inside the git dir, then renamed into place by applyFilePlan,
 * which rolls everything back if any step fails. Ignored files are never touched.
 */
export async function restoreGitSnapshot(s: GitScope, commit: string, onlyRel?: string): Promise<RestoreResult> {
  const scopes = narrowScopes(s, onlyRel);
  return withTempDir(async (tmp) => {
    const index = path.join(tmp, 'index');
    const diff = await diffAgainstCheckpoint(s, commit, scopes, index);
    const writes = [...diff.modified, ...diff.missing];
    if (writes.length === 0 && diff.added.length === 0) return { restored: [], removed: [] };
    const scratch = fs.mkdtempSync(path.join(s.repo.gitDir, 'catcode-restore-'));
    try {
      const stageDir = path.join(scratch, 'stage');
      const backupDir = path.join(scratch, 'backup');
      fs.mkdirSync(backupDir);
      if (writes.length > 0) {
        await runGit(['checkout-index', '-f', '-z', '--stdin', `--prefix=${stageDir}/`], {
          cwd: s.repo.top,
          env: { GIT_INDEX_FILE: index },
          input: writes.map((rel) => fullPath(s.repo, rel)).join('\0'),
        });
        assertStaged(stageDir, s.repo, writes);
      }
      const plan = {
        writes: writes.map((rel) => ({ rel, source: path.join(stageDir, fullPath(s.repo, rel)) })),
        deletes: diff.added,
      };
      const applied = applyFilePlan(path.join(s.repo.top, s.repo.prefix), plan, { scratchDir: backupDir, consumeSources: true });
      return { restored: applied.written, removed: applied.removed };
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
}

/** The blob at `rel` in the checkpoint, or null if the checkpoint has no such file (or does not cover it). */
export async function readGitFileAt(s: GitScope, commit: string, rel: string): Promise<Buffer | null> {
  if (!isWithinAnyScope(rel, s.scopes) || s.excluded.some((ex) => isWithinScope(rel, ex)) || rel.includes('\n')) return null;
  const { stdout } = await runGit(['cat-file', '--batch'], { cwd: s.repo.top, input: `${commit}:${fullPath(s.repo, rel)}\n` });
  const headerEnd = stdout.indexOf(0x0a);
  const [, type, size] = stdout.subarray(0, headerEnd).toString('utf8').split(' ');
  if (type !== 'blob') return null;
  return Buffer.from(stdout.subarray(headerEnd + 1, headerEnd + 1 + Number(size)));
}

export async function deleteGitSnapshot(repo: GitWorkspace, id: string): Promise<void> {
  await runGit(['update-ref', '-d', CHECKPOINT_REF_PREFIX + id], { cwd: repo.top });
}
