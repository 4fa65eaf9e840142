/**
 * What write_file, edit and patch would write, computed without writing: shared by the approval preview and by the
 * tools themselves, so the diff the user approves is the change that gets made.
 */
import fs from 'node:fs/promises';
import { applyEdits, applyUnifiedPatch } from '../../protocol/edits';
import { parseEditSpecs } from './editSpecs';
import { readFileText } from './fileText';
import { ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { resolveWorkspacePath, toWorkspaceRelative } from './workspace';

export type FileEditToolName = 'write_file' | 'edit' | 'patch';

export function isFileEditTool(name: string): name is FileEditToolName {
  return name === 'write_file' || name === 'edit' || name === 'patch';
}

export interface TargetFile {
  abs: string;
  /** Workspace-relative, forward slashes. */
  path: string;
  /** null when the file does not exist yet. */
  oldContent: string | null;
}

/** Resolves and reads the file a write_file/edit/patch call targets. Throws PathError or ToolInputError. */
export async function readTargetFile(args: Record<string, unknown>, workspace: string): Promise<TargetFile> {
  const requested = requiredString(args, 'path');
  const abs = resolveWorkspacePath(workspace, requested);
  const stats = await fs.stat(abs).catch(() => undefined);
  if (stats?.isDirectory()) throw new ToolInputError(`${requested} is a directory`);
  const file = await readFileText(abs);
  if (file.kind === 'binary') {
    throw new ToolInputError(`${requested} is a binary (or non-UTF-8) file; these tools only change UTF-8 text`);
  }
  return { abs, path: toWorkspaceRelative(workspace, abs), oldContent: file.kind === 'text' ? file.text : null };
}

/** The model's proposed full new content. Throws ToolInputError when the arguments do not apply to the file. */
export function proposedContent(name: FileEditToolName, args: Record<string, unknown>, target: TargetFile): string {
  switch (name) {
    case 'write_file':
      return requiredString(args, 'content', { allowEmpty: true });
    case 'edit': {
      const edits = parseEditSpecs(args.edits);
      if (target.oldContent === null) throw new ToolInputError(`${target.path} does not exist; use write_file to create it`);
      const result = applyEdits(target.oldContent, edits);
      if (!result.ok) throw new ToolInputError(result.error);
      return result.content;
    }
    case 'patch': {
      const result = applyUnifiedPatch(target.oldContent ?? '', requiredString(args, 'patch'));
      if (!result.ok) throw new ToolInputError(result.error);
      return result.content;
    }
  }
}
