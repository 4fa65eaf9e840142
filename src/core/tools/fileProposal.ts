/**
 * What write_file, edit and patch would write, computed without writing: shared by the approval preview and by the
 * tools themselves, so the diff the user approves is the change that gets made.
 */
import fs from 'node:fs/promises';
import { proposeFileContent } from '../../protocol/edits';
import { readFileText } from '../platform/fileText';
import { ToolInputError } from './outcome';
import { requiredString } from './toolArgs';
import { resolveWorkspacePath, toWorkspaceRelative } from '../platform/workspace';

export { isFileProposalTool as isFileEditTool, type FileProposalTool as FileEditToolName } from '../../protocol/edits';
import type { FileProposalTool as FileEditToolName } from '../../protocol/edits';

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
  const result = proposeFileContent(name, args, target.oldContent, target.path);
  if (!result.ok) throw new ToolInputError(result.error);
  return result.content;
}
