/**
 * Workspace path confinement for every file tool, and the restricted-path list the approval gate prompts for.
 * Confinement is always on: upstream drops it under approval "never"; we keep it in every mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

export class PathError extends Error {}

const MAX_SYMLINK_HOPS = 40;

/**
 * The absolute path `p` names inside the workspace, with symlinks resolved, or a PathError. Rejects absolute paths,
 * '~', any '..' component, NUL bytes, and anything whose real location (the target's realpath, or for a path that
 * does not exist yet the realpath of its deepest existing ancestor, dangling symlinks followed) is outside the root.
 */
export function resolveWorkspacePath(workspace: string, p: string): string {
  const lexical = checkedLexicalPath(workspace, p);
  const root = realRoot(workspace);
  const real = realpathLenient(lexical);
  if (!isInside(root, real)) throw new PathError(`path ${JSON.stringify(p)} resolves outside the workspace (through a symlink)`);
  return real;
}

/**
 * Like resolveWorkspacePath, but the last component is NOT followed if it is a symlink: for operations on the entry
 * itself (delete, rename), where removing or moving a link must not touch what it points to. The entry's directory
 * must really be inside the workspace, and the entry must not be the workspace root.
 */
export function resolveWorkspaceEntry(workspace: string, p: string): string {
  const lexical = checkedLexicalPath(workspace, p);
  const root = realRoot(workspace);
  if (lexical === path.resolve(workspace)) throw new PathError(`path ${JSON.stringify(p)} is the workspace root itself`);
  const entry = path.join(realpathLenient(path.dirname(lexical)), path.basename(lexical));
  if (!isInside(root, entry) || entry === root) {
    throw new PathError(`path ${JSON.stringify(p)} resolves outside the workspace (through a symlink)`);
  }
  return entry;
}

/** Workspace-relative form of an absolute path, with forward slashes; the root itself is ".". */
export function toWorkspaceRelative(workspace: string, abs: string): string {
  const relative = path.relative(workspace, abs).split(path.sep).join('/');
  return relative === '' ? '.' : relative;
}

/** Upstream's restricted list (core/src/workspace.rs): a match forces an approval prompt, for reads and writes alike. */
const RESTRICTED_PATTERNS = [
  '**/.git',
  '**/.git/**',
  '**/.bashrc',
  '**/.bash_profile',
  '**/.profile',
  '**/.zshrc',
  '**/.ssh',
  '**/.ssh/**',
  '**/.gnupg',
  '**/.gnupg/**',
  '**/id_rsa',
  '**/id_ed25519',
  '**/.env',
  '**/.env.local',
  '**/.env.production',
];

const matchesRestricted = picomatch(RESTRICTED_PATTERNS, { dot: true, nocase: true });

/** Case-insensitive; `./` segments, repeated and back slashes are normalised first so they cannot slip past. */
export function isRestrictedPath(relPath: string): boolean {
  const normalized = relPath
    .split(/[\\/]+/)
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
  return normalized !== '' && matchesRestricted(normalized);
}

function checkedLexicalPath(workspace: string, p: string): string {
  if (typeof p !== 'string') throw new PathError('path must be a string');
  if (p.includes('\0')) throw new PathError('path contains a NUL byte');
  if (p.startsWith('~')) throw new PathError(`path ${JSON.stringify(p)} starts with '~'; only workspace-relative paths are allowed`);
  if (path.isAbsolute(p) || path.win32.isAbsolute(p)) {
    throw new PathError(`path ${JSON.stringify(p)} is absolute; only workspace-relative paths are allowed`);
  }
  if (p.split(/[\\/]/).includes('..')) throw new PathError(`path ${JSON.stringify(p)} contains '..'; leaving the workspace is not allowed`);
  return path.resolve(workspace, p);
}

function realRoot(workspace: string): string {
  try {
    return fs.realpathSync.native(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

/**
 * realpath that also works for paths that do not exist yet: walks the components like the kernel does, following
 * every symlink (dangling ones too, to where a write would land) and applying '..' to the real directory.
 */
function realpathLenient(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    // Some component is missing: resolve by hand below.
  }
  const { root } = path.parse(p);
  const pending = splitComponents(p.slice(root.length));
  let current = root;
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    const link = readLinkIfSymlink(next);
    if (link === undefined) {
      current = next;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) throw new PathError('too many levels of symbolic links');
    if (path.isAbsolute(link)) current = path.parse(link).root;
    pending.unshift(...splitComponents(link));
  }
  return current;
}

function splitComponents(p: string): string[] {
  return p.split(path.sep === '\\' ? /[\\/]+/ : /\/+/).filter((name) => name !== '' && name !== '.');
}

function readLinkIfSymlink(p: string): string | undefined {
  try {
    return fs.lstatSync(p).isSymbolicLink() ? fs.readlinkSync(p) : undefined;
  } catch {
    return undefined;
  }
}

function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}
