import * as vscode from 'vscode';
import type { ApprovalDiffController } from './approvalDiffController';
import { REVIEW_COMMANDS } from './reviewIds';
import { parseReviewUri } from './reviewUris';

/**
 * Accept / Reject on each change of a proposal (the modified side of the review diff; VS Code shows lenses there in
 * side-by-side mode when `diffEditor.codeLens` is on — the manifest defaults it on). Inline mode shows none, so the same
 * actions exist as "at cursor" commands with keybindings.
 */
export class ReviewCodeLensProvider implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly controller: ApprovalDiffController) {
    this.onDidChangeCodeLenses = controller.onDidChangeReview;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const parts = parseReviewUri(doc.uri);
    const preview = parts?.side === 'proposal' ? this.controller.preview(parts.requestId) : undefined;
    if (!preview?.editable) return [];
    const hunks = preview.review.pendingHunks(doc.getText());
    const lastLine = Math.max(0, doc.lineCount - 1);
    return hunks.flatMap((hunk, i) => {
      const range = new vscode.Range(Math.min(hunk.anchorLine, lastLine), 0, Math.min(hunk.anchorLine, lastLine), 0);
      return [
        new vscode.CodeLens(range, {
          title: '$(check) Accept Change',
          tooltip: 'Keep this change (Ctrl+Alt+Y at the cursor)',
          command: REVIEW_COMMANDS.acceptHunk,
          arguments: [preview.requestId, hunk.key],
        }),
        new vscode.CodeLens(range, {
          title: '$(close) Reject Change',
          tooltip: 'Undo this change in the proposal (Ctrl+Alt+N at the cursor)',
          command: REVIEW_COMMANDS.rejectHunk,
          arguments: [preview.requestId, hunk.key],
        }),
        new vscode.CodeLens(range, { title: `${i + 1} of ${hunks.length} undecided`, command: '' }),
      ];
    });
  }
}
