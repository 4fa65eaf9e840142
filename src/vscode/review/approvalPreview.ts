import * as vscode from 'vscode';
import { ProposalReview, proposalTitle } from '../../client/review';
import type { FolderCore } from '../coreManager';
import { reviewUri } from './reviewUris';

export interface PreviewInit {
  core: FolderCore;
  requestId: string;
  toolCallId: string;
  tool: string;
  /** The tool_call's full raw JSON arguments. */
  argsJson: string;
  relPath: string;
  fileUri: vscode.Uri;
  /** The file on disk when the preview was built (null: it does not exist yet). */
  diskText: string | null;
  proposal: string;
  /** The proposal side can be edited and reviewed per change (the core takes edited content). */
  editable: boolean;
  /** Why the proposal was not rebuilt from the tool call (it came from the core's diff). */
  note?: string;
  /** A subagent's proposal: its agent, named in the title. */
  agent?: string;
}

/**
 * One file proposal under review: what the diff shows on each side, what the disk held when it was built, and the
 * per-change decisions. The left side is usually the disk text; after "Merge…" it is the user's unsaved buffer.
 */
export class ApprovalPreview {
  readonly core: FolderCore;
  readonly requestId: string;
  readonly toolCallId: string;
  readonly tool: string;
  readonly argsJson: string;
  readonly relPath: string;
  readonly fileUri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly proposalUri: vscode.Uri;
  readonly editable: boolean;
  readonly agent: string | undefined;
  readonly review: ProposalReview;
  note: string | undefined;
  /** What the core writes when it gets no edited content: the model's change applied to `diskText`. */
  coreWouldWrite: string;
  /** The disk text this preview is based on; a different disk at answer time means re-diffing first. */
  diskText: string | null;
  /** The user's unsaved buffer was merged in: the left side is that buffer, and the write replaces it. */
  mergedFromBuffer = false;
  /** The proposal document was changed in the editor (by hand or by a per-change revert). */
  touched = false;
  /** An answer is being worked out (dialogs, disk checks): no second one meanwhile. */
  answering = false;

  constructor(init: PreviewInit) {
    this.core = init.core;
    this.requestId = init.requestId;
    this.toolCallId = init.toolCallId;
    this.tool = init.tool;
    this.argsJson = init.argsJson;
    this.relPath = init.relPath;
    this.fileUri = init.fileUri;
    this.diskText = init.diskText;
    this.coreWouldWrite = init.proposal;
    this.editable = init.editable;
    this.agent = init.agent;
    this.note = init.note;
    this.originalUri = reviewUri({ requestId: init.requestId, side: 'original', relPath: init.relPath });
    this.proposalUri = reviewUri({ requestId: init.requestId, side: 'proposal', relPath: init.relPath });
    this.review = new ProposalReview({ original: init.diskText ?? '', modelProposal: init.proposal });
  }

  get isNewFile(): boolean {
    return this.diskText === null && !this.mergedFromBuffer;
  }

  get title(): string {
    return proposalTitle({
      relPath: this.relPath,
      isNewFile: this.isNewFile,
      mergedFromBuffer: this.mergedFromBuffer,
      proposer: this.core.session.state.core.kind === 'scv' ? 'SCV' : 'Catalyst',
      editable: this.editable,
      ...(this.agent ? { agent: this.agent } : {}),
    });
  }

  /** The proposal document if VS Code has it open. */
  proposalDocument(): vscode.TextDocument | undefined {
    const key = this.proposalUri.toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  }

  /** The text the user is proposing now: the model's, or the edited document's. */
  currentText(): string {
    const doc = this.touched ? this.proposalDocument() : undefined;
    return doc ? doc.getText() : this.review.modelProposal;
  }

  /** The real file's open document, if any. */
  fileDocument(): vscode.TextDocument | undefined {
    const key = this.fileUri.toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  }
}
