import path from 'node:path';

/**
 * A path inside the workspace as a '/'-separated relative path ('' = the workspace itself).
 * Absolute paths are accepted when they point inside the workspace; anything outside is refused.
 */
export function toWorkspaceRelative(workspace: string, p: string): string {
  const rel = path.relative(workspace, path.resolve(workspace, p));
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
    throw new Error(`path "${p}" is outside the workspace`);
  }
  return rel.split(path.sep).join('/');
}

/** Whether `rel` is `scope` itself or lies below it ('' covers everything). */
export function isWithinScope(rel: string, scope: string): boolean {
  return scope === '' || rel === scope || rel.startsWith(scope + '/');
}

export function isWithinAnyScope(rel: string, scopes: readonly string[]): boolean {
  return scopes.length === 0 || scopes.some((scope) => isWithinScope(rel, scope));
}

/** Workspace-relative locations of our own state that checkpoints must never capture or restore. */
export function ownStateExclusions(workspace: string, locations: readonly string[]): string[] {
  const out = new Set<string>(['.catalyst-code']);
  for (const location of locations) {
    try {
      const rel = toWorkspaceRelative(workspace, location);
      if (rel !== '') out.add(rel);
    } catch {
      // outside the workspace: nothing to exclude
    }
  }
  return [...out];
}
