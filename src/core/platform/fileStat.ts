/** A path's own status (a symlink is not followed), or undefined when there is nothing readable there. */
import fs from 'node:fs';

/** Undefined for a missing path, a file where a directory was expected (ENOTDIR) or an unreadable parent. */
export function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
