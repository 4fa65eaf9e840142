import fs from 'node:fs';
import path from 'node:path';

/** Files kept beside `<session>.jsonl`, named by appending these suffixes to the session path. */
export const SESSION_SIDECAR_SUFFIXES = ['.meta.json', '.stats', '.escalations', '.lock'] as const;

const CHECKPOINT_INDEX_SUFFIX = '.checkpoints.jsonl';

/** '<stem>.checkpoints.jsonl': the session path with its extension replaced, as upstream's `set_extension`. */
export function checkpointIndexPathFor(sessionPath: string): string {
  const { dir, name } = path.parse(sessionPath);
  return path.join(dir, name + CHECKPOINT_INDEX_SUFFIX);
}

export { isSessionFileName } from '../../protocol/sessionLayout';

/** Deletes the session file and every sidecar, including its checkpoint index. Missing files are fine. */
export function deleteSessionFiles(sessionPath: string): void {
  const targets = [sessionPath, ...SESSION_SIDECAR_SUFFIXES.map((suffix) => sessionPath + suffix), checkpointIndexPathFor(sessionPath)];
  for (const target of targets) fs.rmSync(target, { force: true });
}
