import * as vscode from 'vscode';

interface Entry {
  data: Uint8Array;
  mtime: number;
  readonly: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The in-memory files behind approval previews. A file system provider rather than a content provider because the
 * proposal side must be editable (hand edits, per-change revert) where the core accepts edited content; per-file
 * read-only permissions keep the original side, and proposals for cores without that capability, untouchable.
 * Saving a proposal only updates memory: nothing here ever touches the disk.
 */
export class ReviewFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly files = new Map<string, Entry>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changeEmitter.event;

  set(uri: vscode.Uri, text: string, readonly: boolean): void {
    const existed = this.files.has(uri.path);
    this.files.set(uri.path, { data: encoder.encode(text), mtime: Date.now(), readonly });
    this.changeEmitter.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const entry = this.files.get(uri.path);
    return entry && decoder.decode(entry.data);
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(uri.path)) this.changeEmitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  // ── vscode.FileSystemProvider ────────────────────────────────────────────────

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.files.get(uri.path);
    if (entry) {
      return {
        type: vscode.FileType.File,
        ctime: entry.mtime,
        mtime: entry.mtime,
        size: entry.data.byteLength,
        permissions: entry.readonly ? vscode.FilePermission.Readonly : undefined,
      };
    }
    if (this.isDirectory(uri.path))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    const children = new Map<string, vscode.FileType>();
    for (const path of this.files.keys()) {
      if (!path.startsWith(prefix)) continue;
      const [name, ...deeper] = path.slice(prefix.length).split('/');
      children.set(name, deeper.length > 0 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...children];
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.files.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const entry = this.files.get(uri.path);
    if (!entry) throw vscode.FileSystemError.NoPermissions('A proposal can only be edited while its approval is open.');
    if (entry.readonly) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(uri.path, { data: content, mtime: Date.now(), readonly: false });
    this.changeEmitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.files.clear();
    this.changeEmitter.dispose();
  }

  private isDirectory(path: string): boolean {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    for (const file of this.files.keys()) if (file.startsWith(prefix)) return true;
    return false;
  }
}
