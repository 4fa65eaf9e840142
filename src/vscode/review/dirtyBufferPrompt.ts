import * as vscode from 'vscode';
import { dirtyChoices, type DirtyChoice } from '../../client/review';

const LABELS: Record<DirtyChoice, string> = {
  keep_mine: 'Keep Mine',
  take_agents: "Take the Agent's",
  merge: 'Merge…',
};

/**
 * The real file has unsaved changes and the core would write over it: the user decides. Dismissing sends nothing
 * (the approval stays pending). Merge is only offered when the core can write an edited proposal.
 */
export async function askAboutDirtyBuffer(relPath: string, canEditContent: boolean): Promise<DirtyChoice | undefined> {
  const choices = dirtyChoices(canEditContent);
  const detail = [
    "The agent's change was made against the file on disk, and the editor has text you have not saved.",
    `${LABELS.keep_mine}: keep your text; the change is rejected.`,
    `${LABELS.take_agents}: write the agent's version; your unsaved text stays reachable with Undo in that editor.`,
    ...(choices.includes('merge') ? [`${LABELS.merge}: put the agent's change on top of your unsaved text and review the result.`] : []),
  ].join('\n');
  const picked = await vscode.window.showWarningMessage(
    `${relPath} has unsaved changes.`,
    { modal: true, detail },
    ...choices.map((c) => LABELS[c]),
  );
  return choices.find((c) => LABELS[c] === picked);
}
