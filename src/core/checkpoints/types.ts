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
