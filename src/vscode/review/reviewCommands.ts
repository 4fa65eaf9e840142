import type { ApprovalDecision } from '../../shared/sessionState';
import * as vscode from 'vscode';
import { registerReportingCommands, type HandlersFor } from '../commands';
import { perChangeOffReason } from '../../client/review';
import type { ApprovalDiffController } from './approvalDiffController';
import { REVIEW_COMMANDS } from './reviewIds';

/** Commands of the review diff: whole-proposal answers from the editor title / keybindings, per-change from lenses. */
export function registerReviewCommands(controller: ApprovalDiffController, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const whole = (decision: ApprovalDecision) => async (uri?: unknown) => {
    const preview = controller.activePreview(uri);
    if (!preview) return noPreview();
    await controller.answer(preview.requestId, decision);
  };
  const perChange = (kind: 'accept' | 'reject') => async (requestId?: unknown, key?: unknown) => {
    const preview = typeof requestId === 'string' ? controller.preview(requestId) : controller.activePreview();
    if (!preview) return noPreview();
    if (!preview.editable) {
      void vscode.window.showInformationMessage(
        `Catalyst Code: per-change review is off: ${perChangeOffReason(preview.core.session.state.core.kind)}. Accept or reject the whole change.`,
      );
      return;
    }
    const hunkKey = typeof key === 'string' ? key : controller.hunkAtCursor(preview)?.key;
    if (!hunkKey) {
      void vscode.window.showInformationMessage('Catalyst Code: put the cursor on a change in the proposal first.');
      return;
    }
    if (kind === 'accept') await controller.acceptHunk(preview, hunkKey);
    else await controller.rejectHunk(preview, hunkKey);
  };
  const handlers: HandlersFor<typeof REVIEW_COMMANDS> = {
    [REVIEW_COMMANDS.accept]: whole('yes'),
    [REVIEW_COMMANDS.reject]: whole('no'),
    [REVIEW_COMMANDS.acceptForSession]: whole('allow_session'),
    [REVIEW_COMMANDS.always]: whole('always'),
    [REVIEW_COMMANDS.acceptHunk]: perChange('accept'),
    [REVIEW_COMMANDS.rejectHunk]: perChange('reject'),
    [REVIEW_COMMANDS.show]: async (requestId?: unknown) => {
      if (typeof requestId === 'string') await controller.show(requestId);
    },
  };
  return registerReportingCommands(handlers, log);
}

function noPreview(): void {
  void vscode.window.showInformationMessage('Catalyst Code: no proposal is open for review.');
}
