// The path part of `catalyst-checkpoint:/<folderIndex>/<id>/<relPath>` documents (a checkpoint's version of a file).
// The real file's name ends the path, so the diff editor picks the language from its extension.
import { isCheckpointId, safeRelativePath } from './checkpointEvents';

export const CHECKPOINT_SCHEME = 'catalyst-checkpoint';

export interface CheckpointDocRef {
  /** Index of the workspace folder (whose core took the checkpoint). */
  folderIndex: number;
  id: string;
  /** Workspace-relative, forward slashes. */
  path: string;
}

export function checkpointDocPath(ref: CheckpointDocRef): string {
  return `/${ref.folderIndex}/${encodeURIComponent(ref.id)}/${ref.path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The inverse of `checkpointDocPath`; undefined for anything malformed. */
export function parseCheckpointDocPath(path: string): CheckpointDocRef | undefined {
  const [empty, index, id, ...rest] = path.split('/');
  if (empty !== '' || !/^\d{1,4}$/.test(index ?? '') || !id || rest.length === 0) return undefined;
  try {
    const decodedId = decodeURIComponent(id);
    const rel = safeRelativePath(rest.map(decodeURIComponent).join('/'));
    if (!isCheckpointId(decodedId) || !rel) return undefined;
    return { folderIndex: Number(index), id: decodedId, path: rel };
  } catch {
    return undefined;
  }
}

/** A folder-relative path of an absolute one, with forward slashes; undefined outside the folder. */
export function relativeToFolder(folderPath: string, filePath: string, caseInsensitive = false): string | undefined {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = norm(folderPath);
  const file = norm(filePath);
  const [r, f] = caseInsensitive ? [root.toLowerCase(), file.toLowerCase()] : [root, file];
  if (!f.startsWith(`${r}/`)) return undefined;
  return safeRelativePath(file.slice(root.length + 1));
}
