/** What the approval prompt shows for a file edit, computed BEFORE execution. */
import { makeUnifiedDiff } from '../../protocol/edits';
import { isFileEditTool, proposedContent, readTargetFile } from './fileProposal';
import { describeError } from './outcome';

export type FileEditPreview = { path: string; oldContent: string | null; newContent: string; diff: string };

/** The proposed change of a write_file/edit/patch call, `{ error }` when it would not apply, null for other tools. */
export async function previewFileEdit(
  name: string,
  args: Record<string, unknown>,
  workspace: string,
): Promise<FileEditPreview | { error: string } | null> {
  if (!isFileEditTool(name)) return null;
  try {
    const target = await readTargetFile(args, workspace);
    const newContent = proposedContent(name, args, target);
    return {
      path: target.path,
      oldContent: target.oldContent,
      newContent,
      diff: makeUnifiedDiff(target.path, target.oldContent ?? '', newContent),
    };
  } catch (error) {
    return { error: describeError(error) };
  }
}
