/** The files a grep call searches, with their lines: roots, type and glob filters, .gitignore, size and binary skips. */
import fs from 'node:fs/promises';
import picomatch from 'picomatch';
import { extensionsForType, knownTypeNames } from './fileTypes';
import { decodeText } from '../platform/fileText';
import { GitignoreRules } from './gitignoreRules';
import { ToolInputError } from './outcome';
import { isRestrictedPath, resolveWorkspacePath, toWorkspaceRelative } from '../platform/workspace';
import { walkFiles } from './workspaceWalk';

const MAX_FILE_BYTES = 1024 * 1024;

export interface GrepFileSelection {
  /** Workspace-relative files or directories; '.' for the whole workspace. */
  roots: string[];
  /** Include globs, and '!'-prefixed exclude globs, matched against workspace-relative paths. */
  globs: string[];
  type?: string;
}

export interface SearchedFile {
  path: string;
  lines: string[];
}

export interface SkippedFiles {
  /** Binary or over 1 MiB. */
  count: number;
  /** Restricted files (.env, .ssh/…) met while walking a directory that is not itself restricted. */
  restricted?: number;
}

/** Yields each searchable file once, in path order per root; counts files skipped for size or binary content. */
export async function* grepFiles(
  workspace: string,
  selection: GrepFileSelection,
  skipped: SkippedFiles,
  signal: AbortSignal,
): AsyncGenerator<SearchedFile> {
  const wanted = fileFilter(selection);
  const rules = new GitignoreRules(workspace);
  const seen = new Set<string>();
  for (const root of selection.roots) {
    // The approval gate asks before a restricted root is searched, not before the restricted files under a plain one.
    const rootRestricted = isRestrictedPath(toWorkspaceRelative(workspace, resolveWorkspacePath(workspace, root)));
    for await (const abs of filesUnder(workspace, root, rules, signal)) {
      const rel = toWorkspaceRelative(workspace, abs);
      if (seen.has(rel) || !wanted(rel)) continue;
      if (!rootRestricted && isRestrictedPath(rel)) {
        skipped.restricted = (skipped.restricted ?? 0) + 1;
        continue;
      }
      seen.add(rel);
      const lines = await readLines(abs);
      if (lines) yield { path: rel, lines };
      else skipped.count++;
    }
  }
}

async function* filesUnder(workspace: string, root: string, rules: GitignoreRules, signal: AbortSignal): AsyncGenerator<string> {
  const abs = resolveWorkspacePath(workspace, root);
  const stats = await fs.stat(abs).catch(() => undefined);
  if (!stats) throw new ToolInputError(`${root}: no such file or directory`);
  if (stats.isFile()) {
    yield abs;
    return;
  }
  // A directory the user names explicitly is searched even if .gitignore ignores it.
  const rel = toWorkspaceRelative(workspace, abs);
  const explicitlyIgnored = rel !== '.' && (await rules.ignores(rel, true));
  yield* walkFiles(workspace, abs, explicitlyIgnored ? undefined : rules, signal);
}

function fileFilter(selection: GrepFileSelection): (rel: string) => boolean {
  const extensions = selection.type === undefined ? undefined : typeExtensions(selection.type);
  const includes = selection.globs.filter((glob) => !glob.startsWith('!'));
  const excludes = selection.globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  const options = { dot: true, basename: true };
  const included = includes.length > 0 ? picomatch(includes, options) : () => true;
  const excluded = excludes.length > 0 ? picomatch(excludes, options) : () => false;
  return (rel) => {
    if (extensions && !extensions.some((extension) => rel.toLowerCase().endsWith(`.${extension}`))) return false;
    return included(rel) && !excluded(rel);
  };
}

function typeExtensions(type: string): readonly string[] {
  const extensions = extensionsForType(type);
  if (!extensions) throw new ToolInputError(`unknown type ${JSON.stringify(type)}; known types: ${knownTypeNames().join(', ')}`);
  return extensions;
}

/** The file's lines without line breaks, or undefined when it is too large or binary. */
async function readLines(abs: string): Promise<string[] | undefined> {
  const stats = await fs.stat(abs).catch(() => undefined);
  if (!stats || stats.size > MAX_FILE_BYTES) return undefined;
  const bytes = await fs.readFile(abs).catch(() => undefined);
  const text = bytes && decodeText(bytes);
  if (text === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
