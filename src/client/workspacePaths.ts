import path from 'node:path';

/**
 * Resolves a path the webview (untrusted: it renders model output) asks to open. Relative paths resolve against the
 * workspace folder; the result must stay inside one of the roots, or it is refused (undefined).
 */
export function resolveInsideWorkspace(requested: string, base: string, roots: readonly string[]): string | undefined {
  if (!requested || requested.includes('\0')) return undefined;
  const cleaned = requested.replace(/^@/, '').replace(/^"(.*)"$/, '$1');
  const absolute = path.resolve(base, cleaned);
  return roots.some((root) => isInside(root, absolute)) ? absolute : undefined;
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(candidate));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** A workspace-relative path with forward slashes, as the chat and the model see it. */
export function toWorkspaceRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}
