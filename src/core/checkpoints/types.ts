export interface CheckpointRecord {
  /** cp-<unix_secs>-<16hex> */
  id: string;
  label: string;
  /** Unix milliseconds. */
  created_at: number;
  kind: 'git' | 'files';
  /** HEAD when the checkpoint was taken; '' in a repository without commits and for the files backend. */
  head_sha: string;
  /** git: the snapshot commit (refs/catcode/checkpoints/<id>); '' for the files backend. */
  stash_sha: string;
  /** Workspace-relative paths the checkpoint covers; empty = the whole workspace. */
  paths: string[];
  /** files: the snapshot directory; '' for git. */
  dir: string;
  auto: boolean;
  run_id?: string;
  deleted?: boolean;
  /**
   * 2 = ours: the snapshot holds every file the workspace had (tracked and untracked, minus ignored, build outputs
   * and oversized files), so files missing from it were created later. Absent = upstream's (a stash commit of tracked
   * files, or a copy of listed files): a restore then never deletes anything.
   */
  format?: number;
  /** 'shadow': a non-git folder snapshotted into our private shadow repository (kind 'files' on the wire). */
  store?: 'shadow';
  /** Workspace-relative files left out for exceeding `max_file_bytes`. */
  skipped?: string[];
  max_file_bytes?: number;
  /** The snapshot commit's tree (ours): a working tree that snapshots to the same tree has no changes. */
  tree?: string;
}

/** How the working tree differs from the checkpoint, per workspace-relative path. */
export interface CheckpointFileChange {
  path: string;
  status: 'modified' | 'added' | 'deleted';
}

export interface RestoreResult {
  /** Workspace-relative paths written back to their checkpoint content. */
  restored: string[];
  /** Workspace-relative paths removed because they did not exist at the checkpoint. */
  removed: string[];
}
