import fs from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined } from '../platform/fileStat';
import { applyFilePlan, type PlannedWrite } from './applyFilePlan';
import { walkWorkspaceFiles } from './fileWalk';
import { isWithinAnyScope, isWithinScope } from './relPath';
import { makeScratchDir } from '../platform/scratchDirs';
import type { CheckpointFileChange, RestoreResult } from './types';

/** Upstream's cap on files per snapshot. */
export const SNAPSHOT_FILE_LIMIT = 2000;
/** How far a restore looks for files created since the checkpoint. */
const RESTORE_WALK_LIMIT = 50_000;

const MANIFEST_NAME = 'manifest.json';
/** Scratch of a restore (backups of the files it replaces) in the old store directory. */
export const FILES_RESTORE_SCRATCH = '.restore-';
const FILES_SUBDIR = 'files';

/**
 * `paths` is what upstream's manifest has. The rest is ours; an upstream manifest lacks it and then
 * means: files stored directly in the snapshot dir, covering exactly those files, nothing to delete.
 */
interface FilesManifest {
  paths: string[];
  version?: number;
  /** Subdirectory of the snapshot dir holding the files (keeps a workspace 'manifest.json' from colliding). */
  root?: string;
  modes?: Record<string, number>;
  /** What the snapshot covers; [] = the whole workspace. */
  scopes?: string[];
  /** Scopes that did not exist at checkpoint time. */
  absent?: string[];
  /** Files over the size limit, not captured. */
  skipped?: string[];
  /** The file limit was hit, so absence from the manifest proves nothing: restore deletes nothing. */
  truncated?: boolean;
}

export interface FilesScope {
  workspace: string;
  /** Empty = the whole workspace. */
  scopes: string[];
  excluded: string[];
  maxFileBytes: number;
}

interface SnapshotView {
  root: string;
  modes: Map<string, number | undefined>;
  scopes: string[];
  /** Whether files absent from the snapshot may be removed on restore. */
  removesNewFiles: boolean;
}

function snapshotFiles(s: FilesScope): { files: string[]; absent: string[]; truncated: boolean } {
  const files = new Set<string>();
  const absent: string[] = [];
  let truncated = false;
  for (const scope of s.scopes.length ? s.scopes : ['']) {
    if (!lstatOrUndefined(path.join(s.workspace, scope))) {
      absent.push(scope);
      continue;
    }
    const walk = walkWorkspaceFiles(s.workspace, scope, { limit: SNAPSHOT_FILE_LIMIT - files.size, excluded: s.excluded });
    truncated ||= walk.truncated;
    for (const rel of walk.files) files.add(rel);
  }
  return { files: [...files], absent, truncated };
}

/** Copies the covered files into `<dir>/files/` and writes `<dir>/manifest.json`. */
export function createFilesSnapshot(s: FilesScope, dir: string): void {
  const filesRoot = path.join(dir, FILES_SUBDIR);
  fs.mkdirSync(filesRoot, { recursive: true });
  try {
    const { files, absent, truncated } = snapshotFiles(s);
    const manifest: Required<FilesManifest> = {
      paths: [],
      version: 1,
      root: FILES_SUBDIR,
      modes: {},
      scopes: s.scopes,
      absent,
      skipped: [],
      truncated,
    };
    for (const rel of files) {
      const src = path.join(s.workspace, rel);
      const st = lstatOrUndefined(src);
      if (!st?.isFile()) continue; // vanished (or replaced) since the walk
      if (st.size > s.maxFileBytes) {
        manifest.skipped.push(rel);
        continue;
      }
      const dest = path.join(filesRoot, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(src, dest);
      manifest.paths.push(rel);
      manifest.modes[rel] = st.mode & 0o777;
    }
    fs.writeFileSync(path.join(dir, MANIFEST_NAME), JSON.stringify(manifest) + '\n');
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function readSnapshot(dir: string): SnapshotView {
  let manifest: FilesManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_NAME), 'utf8')) as FilesManifest;
  } catch (err) {
    throw new Error(`checkpoint snapshot at ${dir} is unreadable: ${(err as Error).message}`, { cause: err });
  }
  const paths = Array.isArray(manifest.paths) ? manifest.paths.filter((p) => typeof p === 'string') : [];
  const modes = new Map(paths.map((rel) => [rel, manifest.modes?.[rel]] as const));
  return {
    root: manifest.root ? path.join(dir, manifest.root) : dir,
    modes,
    scopes: Array.isArray(manifest.scopes) ? manifest.scopes : paths,
    // An upstream snapshot (no version) never records what was absent, so it never deletes anything.
    removesNewFiles: manifest.version !== undefined && manifest.truncated !== true,
  };
}

function sameContent(snapshotFile: string, current: string, mode: number | undefined): boolean {
  const cur = lstatOrUndefined(current);
  if (!cur?.isFile()) return false;
  if (cur.size !== fs.statSync(snapshotFile).size) return false;
  if (mode !== undefined && (cur.mode & 0o111) !== (mode & 0o111)) return false;
  return fs.readFileSync(snapshotFile).equals(fs.readFileSync(current));
}

interface FilesDiff {
  modified: string[];
  missing: string[];
  added: string[];
}

function newFilesSince(s: FilesScope, snap: SnapshotView, scopes: string[]): string[] {
  if (!snap.removesNewFiles) return [];
  const added = new Set<string>();
  for (const scope of scopes.length ? scopes : ['']) {
    const walk = walkWorkspaceFiles(s.workspace, scope, { limit: RESTORE_WALK_LIMIT, excluded: s.excluded });
    for (const rel of walk.files) {
      if (snap.modes.has(rel)) continue;
      const size = lstatOrUndefined(path.join(s.workspace, rel))?.size;
      if (size !== undefined && size <= s.maxFileBytes) added.add(rel);
    }
  }
  return [...added].sort();
}

function diffAgainstSnapshot(s: FilesScope, snap: SnapshotView, onlyRel?: string): FilesDiff {
  const modified: string[] = [];
  const missing: string[] = [];
  for (const [rel, mode] of snap.modes) {
    if (onlyRel !== undefined && !isWithinScope(rel, onlyRel)) continue;
    const current = path.join(s.workspace, rel);
    if (!lstatOrUndefined(current)) missing.push(rel);
    else if (!sameContent(path.join(snap.root, rel), current, mode)) modified.push(rel);
  }
  const scopes = onlyRel === undefined ? snap.scopes : [onlyRel];
  return { modified: modified.sort(), missing: missing.sort(), added: newFilesSince(s, snap, scopes) };
}

function assertCovers(snap: SnapshotView, s: FilesScope, rel: string): void {
  const covered = snap.modes.has(rel) || isWithinAnyScope(rel, snap.scopes);
  if (!covered || s.excluded.some((ex) => isWithinScope(rel, ex))) throw new Error(`${rel} is not covered by this checkpoint`);
}

export function filesChangedFiles(s: FilesScope, dir: string): CheckpointFileChange[] {
  const diff = diffAgainstSnapshot(s, readSnapshot(dir));
  const changes: CheckpointFileChange[] = [
    ...diff.modified.map((p) => ({ path: p, status: 'modified' as const })),
    ...diff.missing.map((p) => ({ path: p, status: 'deleted' as const })),
    ...diff.added.map((p) => ({ path: p, status: 'added' as const })),
  ];
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Writes back files that differ from the snapshot and, unless the snapshot was truncated, removes files
 * created since within its scope. Every file goes through temp + rename; any failure rolls back.
 */
export function restoreFilesSnapshot(s: FilesScope, dir: string, scratchParent: string, onlyRel?: string): RestoreResult {
  const snap = readSnapshot(dir);
  if (onlyRel !== undefined) assertCovers(snap, s, onlyRel);
  const diff = diffAgainstSnapshot(s, snap, onlyRel);
  const writes: PlannedWrite[] = [...diff.modified, ...diff.missing].map((rel) => ({
    rel,
    source: path.join(snap.root, rel),
    mode: snap.modes.get(rel),
  }));
  if (writes.length === 0 && diff.added.length === 0) return { restored: [], removed: [] };
  const scratch = makeScratchDir(scratchParent, FILES_RESTORE_SCRATCH);
  try {
    const applied = applyFilePlan(s.workspace, { writes, deletes: diff.added }, { scratchDir: scratch, consumeSources: false });
    return { restored: applied.written, removed: applied.removed };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export function readFilesFileAt(dir: string, rel: string): Buffer | null {
  const snap = readSnapshot(dir);
  return snap.modes.has(rel) ? fs.readFileSync(path.join(snap.root, rel)) : null;
}
