import * as vscode from 'vscode';

// ignoreBOM keeps a byte-order mark in the text, as the core sees the file.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The file's text as it is on disk now, or null when it does not exist (or is not a file). */
export async function readDiskText(uri: vscode.Uri): Promise<string | null> {
  try {
    return decoder.decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    if (err instanceof vscode.FileSystemError && (err.code === 'FileNotFound' || err.code === 'FileIsADirectory')) return null;
    throw err;
  }
}

/** A path the core resolves inside its workspace folder: relative, no "..", forward slashes. Else undefined. */
export function workspaceRelativePath(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.trim() === '') return undefined;
  const rel = path.replace(/\\/g, '/').replace(/^\.\//, '');
  if (rel.startsWith('/') || /^[a-zA-Z]:/.test(rel) || rel.split('/').includes('..')) return undefined;
  return rel;
}
