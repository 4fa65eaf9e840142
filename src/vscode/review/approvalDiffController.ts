import * as vscode from 'vscode';
import { isAnyFileProposalTool } from '../../protocol/edits';
import { buildProposal, checkBeforeAnswer, perChangeOffReason, rebaseChange, rejectHunkEdit, type ReviewHunk } from '../../client/review';
import type { ApprovalItem, ApprovalDecision } from '../../shared/sessionState';
import { UI_CAPABILITIES } from '../../shared/sessionState';
import { CHILD_TOOL_ID_PREFIX, childToolId } from '../../shared/childToolId';
import { errorText, type CoreEvent, type CoreManager, type FolderCore } from '../coreManager';
import { ApprovalPreview } from './approvalPreview';
import { askAboutDirtyBuffer } from './dirtyBufferPrompt';
import { readDiskText, workspaceRelativePath } from './diskText';
import { showWrittenFile } from './editorSync';
import type { ReviewFileSystem } from './reviewFileSystem';
import { parseReviewUri } from './reviewUris';

/** `vscode.diff` can stall on a busy workbench; the approval must never wait on it (the chat card stays answerable). */
const OPEN_TIMEOUT_MS = 2000;

export interface ApprovalDiffDeps {
  cores: CoreManager;
  fs: ReviewFileSystem;
  log: vscode.LogOutputChannel;
  /** Whether a chat is on screen (its approval card is then in view, so no notification). */
  chatVisible: () => boolean;
}

interface PendingWrite {
  uri: vscode.Uri;
  /** The user chose the agent's version over unsaved text: the editor is reverted once the core wrote. */
  replaceUnsaved: boolean;
}

/**
 * Edit approvals in VS Code's diff editor. On a file tool's `approval_request` it rebuilds the full proposal from the
 * tool call, opens original ↔ proposal, and turns the user's review (whole, per change, hand edits) into one `approve`.
 * Before answering it re-reads the disk (a file changed since the preview is re-diffed, not overwritten) and never lets
 * the write silently replace unsaved text. The first answer from anywhere wins; the preview closes when its approval
 * stops being pending for any reason.
 */
export class ApprovalDiffController implements vscode.Disposable {
  private readonly previews = new Map<string, ApprovalPreview>();
  private readonly building = new Map<string, Promise<ApprovalPreview | undefined>>();
  private readonly pendingWrites = new Map<string, PendingWrite>();
  private readonly notified = new Set<string>();
  private readonly lensEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Per-change review state changed: CodeLenses must be recomputed. */
  readonly onDidChangeReview = this.lensEmitter.event;

  constructor(private readonly deps: ApprovalDiffDeps) {
    this.subscriptions.push(
      this.lensEmitter,
      deps.cores.onCoreEvent(({ core, event }) => this.onCoreEvent(core, event)),
      deps.cores.onDidChangeActiveState(() => this.reconcile()),
      vscode.workspace.onDidChangeTextDocument((e) => this.onDocumentChanged(e)),
    );
  }

  preview(requestId: string): ApprovalPreview | undefined {
    return this.previews.get(requestId);
  }

  /** The preview the user is looking at: the focused side of a review diff, else the active diff tab, else the only one. */
  activePreview(uri?: unknown): ApprovalPreview | undefined {
    const candidates: vscode.Uri[] = [];
    if (uri instanceof vscode.Uri) candidates.push(uri);
    const editorUri = vscode.window.activeTextEditor?.document.uri;
    if (editorUri) candidates.push(editorUri);
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) candidates.push(input.modified);
    for (const candidate of candidates) {
      const parts = parseReviewUri(candidate);
      const found = parts && this.previews.get(parts.requestId);
      if (found) return found;
    }
    return this.previews.size === 1 ? [...this.previews.values()][0] : undefined;
  }

  /** Opens (or brings back) the diff for a pending file approval. */
  async show(requestId: string, opts: { preserveFocus?: boolean } = {}): Promise<void> {
    const core = this.coreOf(requestId);
    const item = core && pendingApproval(core, requestId);
    if (!core || !item) {
      void vscode.window.showInformationMessage('Catalyst Code: that approval was already answered, expired or cancelled.');
      return;
    }
    if (!isAnyFileProposalTool(item.tool)) return;
    const preview = await this.ensurePreview(core, item);
    if (!preview) return;
    await this.openDiff(preview, opts.preserveFocus ?? false);
  }

  /**
   * The user's answer, from any surface. File proposals go through the safety checks first; returns true when an
   * answer was sent to the core.
   */
  async answer(requestId: string, decision: ApprovalDecision, opts: { pattern?: string } = {}): Promise<boolean> {
    const core = this.coreOf(requestId);
    const item = core && pendingApproval(core, requestId);
    if (!core || !item) {
      void vscode.window.showInformationMessage('Catalyst Code: that approval was already answered, expired or cancelled.');
      return false;
    }
    if (!isAnyFileProposalTool(item.tool) || decision === 'no') {
      const sent = core.session.approve(requestId, decision, opts.pattern === undefined ? undefined : { pattern: opts.pattern }) !== false;
      const preview = this.previews.get(requestId);
      if (sent && preview) await this.close(preview);
      return sent;
    }
    const preview = await this.ensurePreview(core, item);
    // Not rebuildable here (a path outside the folder, say): the core's own rules decide, as with any client.
    if (!preview)
      return core.session.approve(requestId, decision, opts.pattern === undefined ? undefined : { pattern: opts.pattern }) !== false;
    if (preview.answering) return false;
    preview.answering = true;
    try {
      return await this.answerProposal(preview, decision, opts.pattern);
    } finally {
      preview.answering = false;
    }
  }

  /** Per-change: keep this change. Sends the answer once every change is decided. */
  async acceptHunk(preview: ApprovalPreview, key: string): Promise<void> {
    preview.review.acceptHunk(key);
    this.lensEmitter.fire();
    await this.answerIfAllDecided(preview);
  }

  /** Per-change: undo this change in the proposal (an undoable edit of the proposal document). */
  async rejectHunk(preview: ApprovalPreview, key: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(preview.proposalUri);
    const edit = rejectHunkEdit(preview.review.original, doc.getText(), key);
    if (!edit) return;
    const workspaceEdit = new vscode.WorkspaceEdit();
    workspaceEdit.replace(doc.uri, new vscode.Range(doc.positionAt(edit.start), doc.positionAt(edit.end)), edit.text);
    if (!(await vscode.workspace.applyEdit(workspaceEdit))) {
      void vscode.window.showWarningMessage('Catalyst Code: could not revert that change in the proposal.');
      return;
    }
    preview.touched = true;
    this.lensEmitter.fire();
    await this.answerIfAllDecided(preview);
  }

  /** The change under the cursor of the focused side of the review diff. */
  hunkAtCursor(preview: ApprovalPreview): ReviewHunk | undefined {
    const editor = vscode.window.activeTextEditor;
    const parts = editor && parseReviewUri(editor.document.uri);
    if (!editor || !parts || parts.requestId !== preview.requestId) return undefined;
    const line = editor.selection.active.line;
    const hunks = preview.review.pendingHunks(preview.currentText());
    if (parts.side === 'proposal') {
      return (
        hunks.find((h) => line >= h.proposalStart && line < h.proposalStart + Math.max(1, h.proposalCount)) ??
        hunks.find((h) => h.proposalCount === 0 && h.anchorLine === line) ??
        hunks.find((h) => h.proposalStart > line)
      );
    }
    return (
      hunks.find((h) => line >= h.originalStart && line < h.originalStart + Math.max(1, h.originalCount)) ??
      hunks.find((h) => h.originalStart > line)
    );
  }

  dispose(): void {
    for (const preview of [...this.previews.values()]) void this.close(preview);
    this.subscriptions.forEach((d) => d.dispose());
  }

  // ── Events ──────────────────────────────────────────────────────────────────

  private onCoreEvent(core: FolderCore, event: CoreEvent): void {
    switch (event.type) {
      case 'approval_request':
        void this.onApprovalRequest(core, String(event.request_id ?? ''));
        break;
      case 'tool_result':
        void this.onToolResult(String(event.id ?? ''), event.ok === true);
        break;
      // A child's call reports its result here, never as a tool_result.
      case 'subagent_tool_result':
        void this.onToolResult(childToolId(String(event.run_id ?? ''), String(event.call_id ?? '')), event.ok === true);
        break;
    }
    this.reconcile();
  }

  private async onApprovalRequest(core: FolderCore, requestId: string): Promise<void> {
    const item = pendingApproval(core, requestId);
    if (!item) return;
    const autoOpen = vscode.workspace.getConfiguration('catalystCode', core.folder.uri).get<boolean>('review.openDiffAutomatically', true);
    if (isAnyFileProposalTool(item.tool) && autoOpen) {
      try {
        await this.show(requestId);
      } catch (err) {
        this.deps.log.warn(`approval preview for ${requestId} failed: ${errorText(err)}`);
      }
    }
    this.notify(core, requestId);
  }

  private async onToolResult(toolCallId: string, ok: boolean): Promise<void> {
    const write = this.pendingWrites.get(toolCallId);
    if (!write) return;
    this.pendingWrites.delete(toolCallId);
    if (!ok) return;
    try {
      await showWrittenFile(write.uri, { replaceUnsaved: write.replaceUnsaved });
    } catch (err) {
      this.deps.log.warn(`could not refresh ${write.uri.fsPath} after the write: ${errorText(err)}`);
    }
  }

  private onDocumentChanged(e: vscode.TextDocumentChangeEvent): void {
    const parts = e.contentChanges.length > 0 ? parseReviewUri(e.document.uri) : undefined;
    if (parts?.side !== 'proposal') return;
    const preview = this.previews.get(parts.requestId);
    if (!preview) return;
    preview.touched = true;
    this.lensEmitter.fire();
  }

  /**
   * Closes every preview whose approval is no longer pending (answered elsewhere, expired, cancelled, core gone). Runs on
   * every state change, which comes before the raw event's listeners, so this is also where an expiry is announced.
   */
  private reconcile(): void {
    for (const preview of [...this.previews.values()]) {
      const item = findApproval(preview.core, preview.requestId);
      if (item?.state === 'pending') continue;
      void this.close(preview);
      if (item?.state === 'expired') {
        void vscode.window.showInformationMessage(
          `Catalyst Code: the approval for ${preview.relPath} expired — the core stopped waiting and did not write it.`,
        );
      }
    }
  }

  // ── Building and showing ────────────────────────────────────────────────────

  private ensurePreview(core: FolderCore, item: ApprovalItem): Promise<ApprovalPreview | undefined> {
    const existing = this.previews.get(item.id);
    if (existing) return Promise.resolve(existing);
    let building = this.building.get(item.id);
    if (!building) {
      building = this.build(core, item).finally(() => this.building.delete(item.id));
      this.building.set(item.id, building);
    }
    return building;
  }

  private async build(core: FolderCore, item: ApprovalItem): Promise<ApprovalPreview | undefined> {
    const relPath = workspaceRelativePath(parseArgs(item.args).path);
    if (!relPath) {
      this.deps.log.warn(`approval ${item.id}: no previewable path in the ${item.tool} arguments; answer it in the chat`);
      return undefined;
    }
    const fileUri = vscode.Uri.joinPath(childWorktree(core, item) ?? core.folder.uri, relPath);
    const diskText = await readDiskText(fileUri);
    const built = buildProposal({ tool: item.tool, argsJson: item.args, currentText: diskText, coreDiff: item.diff });
    if (!built.ok) {
      void vscode.window.showWarningMessage(`Catalyst Code: can't preview the change to ${relPath}: ${built.error} Answer it in the chat.`);
      return undefined;
    }
    if (!pendingApproval(core, item.id)) return undefined;
    const preview = new ApprovalPreview({
      core,
      requestId: item.id,
      toolCallId: item.toolCallId,
      tool: item.tool,
      argsJson: item.args,
      relPath,
      fileUri,
      diskText,
      proposal: built.content,
      editable: core.session.capabilities().has(UI_CAPABILITIES.editedContent),
      note: built.source === 'core_diff' ? (built.note ?? "The proposal was rebuilt from the core's diff.") : undefined,
      ...(item.childRunId !== undefined ? { agent: item.agent || 'subagent' } : {}),
    });
    this.previews.set(item.id, preview);
    this.deps.fs.set(preview.originalUri, diskText ?? '', true);
    this.deps.fs.set(preview.proposalUri, built.content, !preview.editable);
    return preview;
  }

  private async openDiff(preview: ApprovalPreview, preserveFocus: boolean): Promise<void> {
    const opened = vscode.commands.executeCommand('vscode.diff', preview.originalUri, preview.proposalUri, preview.title, {
      preview: false,
      preserveFocus,
    });
    const outcome = await Promise.race([
      Promise.resolve(opened).then(
        () => 'opened' as const,
        (err: unknown) => err,
      ),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), OPEN_TIMEOUT_MS)),
    ]);
    if (outcome === 'timeout')
      this.deps.log.warn(
        `the diff for ${preview.relPath} took over ${OPEN_TIMEOUT_MS} ms to open; the approval stays answerable in the chat`,
      );
    else if (outcome !== 'opened') throw outcome;
    if (preview.note) void vscode.window.showInformationMessage(`Catalyst Code: ${preview.note}`);
    if (!preview.editable) {
      vscode.window.setStatusBarMessage(
        `$(info) Per-change review and editing are off: ${perChangeOffReason(preview.core.session.state.core.kind)}.`,
        10_000,
      );
    }
  }

  // ── Answering ───────────────────────────────────────────────────────────────

  private async answerProposal(preview: ApprovalPreview, decision: ApprovalDecision, pattern: string | undefined): Promise<boolean> {
    const disk = await readDiskText(preview.fileUri);
    const fileDoc = preview.fileDocument();
    // After Merge… the left side is the buffer as it was merged; anything typed since is unsaved text again.
    const bufferMoved = preview.mergedFromBuffer && fileDoc !== undefined && fileDoc.getText() !== preview.review.original;
    const check = checkBeforeAnswer({
      previewBase: preview.diskText,
      diskNow: disk,
      bufferDirty: Boolean(fileDoc?.isDirty) && (!preview.mergedFromBuffer || bufferMoved),
    });
    if (check.kind === 'changed_on_disk') {
      await this.rediff(preview, disk);
      return false;
    }
    let replaceUnsaved = preview.mergedFromBuffer && !bufferMoved;
    if (check.kind === 'dirty_buffer' && fileDoc) {
      const choice = await askAboutDirtyBuffer(preview.relPath, preview.editable);
      if (!choice || !pendingApproval(preview.core, preview.requestId)) return false;
      if (choice === 'keep_mine') return this.send(preview, 'no');
      if (choice === 'merge') {
        await this.mergeBuffer(preview, fileDoc);
        return false;
      }
      replaceUnsaved = true;
    }
    const text = preview.currentText();
    if (preview.review.answerFor(text).decision === 'no') return this.send(preview, 'no');
    const editedContent = preview.editable && text !== preview.coreWouldWrite ? text : undefined;
    return this.send(preview, decision, { pattern, editedContent }, replaceUnsaved);
  }

  private send(
    preview: ApprovalPreview,
    decision: ApprovalDecision,
    opts: { pattern?: string; editedContent?: string } = {},
    replaceUnsaved = false,
  ): boolean {
    const options = {
      ...(opts.pattern !== undefined ? { pattern: opts.pattern } : {}),
      ...(opts.editedContent !== undefined ? { editedContent: opts.editedContent } : {}),
    };
    const sent = preview.core.session.approve(preview.requestId, decision, options) !== false;
    if (!sent) return false;
    if (decision !== 'no') this.pendingWrites.set(writeKey(preview.toolCallId), { uri: preview.fileUri, replaceUnsaved });
    void this.close(preview);
    return true;
  }

  private async answerIfAllDecided(preview: ApprovalPreview): Promise<void> {
    if (!this.previews.has(preview.requestId) || !preview.review.allDecided(preview.currentText())) return;
    await this.answer(preview.requestId, 'yes');
  }

  /** The file changed on disk since the preview: show the proposal on top of the new text, and don't answer yet. */
  private async rediff(preview: ApprovalPreview, disk: string | null): Promise<void> {
    const newBase = disk ?? '';
    const rebuilt = buildProposal({ tool: preview.tool, argsJson: preview.argsJson, currentText: disk });
    const modelVersion = rebuilt.ok ? rebuilt.content : undefined;
    const userVersion = preview.touched ? rebaseChange(preview.review.original, preview.currentText(), newBase) : modelVersion;
    const next = userVersion ?? modelVersion;
    if (next === undefined) {
      void vscode.window.showWarningMessage(
        `Catalyst Code: ${preview.relPath} changed on disk after the preview was built, and the proposal no longer applies to it. Reject it, or ask the agent again.`,
      );
      return;
    }
    preview.diskText = disk;
    preview.mergedFromBuffer = false;
    preview.coreWouldWrite = modelVersion ?? next;
    preview.review.reset({ original: newBase, modelProposal: modelVersion ?? next });
    await this.setSides(preview, newBase, next);
    void vscode.window.showWarningMessage(
      `Catalyst Code: ${preview.relPath} changed on disk after the preview was built. The diff now shows the proposal on top of the new text — review it and accept again.`,
    );
  }

  /** "Merge…": the proposal replayed onto the user's unsaved text, shown against that text for review. */
  private async mergeBuffer(preview: ApprovalPreview, fileDoc: vscode.TextDocument): Promise<void> {
    const buffer = fileDoc.getText();
    const merged = rebaseChange(preview.review.original, preview.currentText(), buffer);
    if (merged === undefined) {
      void vscode.window.showWarningMessage(
        `Catalyst Code: your unsaved changes to ${preview.relPath} and the proposal touch the same lines. Accept again and choose "Keep Mine" or "Take the Agent's".`,
      );
      return;
    }
    preview.mergedFromBuffer = true;
    preview.review.reset({ original: buffer, modelProposal: merged });
    await this.setSides(preview, buffer, merged);
    await this.openDiff(preview, false);
    void vscode.window.showInformationMessage(
      `Catalyst Code: the proposal now sits on top of your unsaved text in ${preview.relPath}. Review it and accept to write it.`,
    );
  }

  private async setSides(preview: ApprovalPreview, original: string, proposal: string): Promise<void> {
    this.deps.fs.set(preview.originalUri, original, true);
    const doc = preview.proposalDocument();
    if (doc && doc.getText() !== proposal) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), proposal);
      await vscode.workspace.applyEdit(edit);
    } else if (!doc) {
      this.deps.fs.set(preview.proposalUri, proposal, !preview.editable);
    }
    preview.touched = proposal !== preview.review.modelProposal;
    this.lensEmitter.fire();
  }

  private async close(preview: ApprovalPreview): Promise<void> {
    if (this.previews.get(preview.requestId) !== preview) return;
    this.previews.delete(preview.requestId);
    this.lensEmitter.fire();
    try {
      // A dirty proposal would make closing its tab ask "Save?"; saving only writes our in-memory copy.
      const doc = preview.proposalDocument();
      if (doc?.isDirty) await doc.save();
      const key = preview.proposalUri.toString();
      const tabs = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key);
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    } catch (err) {
      this.deps.log.warn(`closing the preview of ${preview.relPath}: ${errorText(err)}`);
    } finally {
      this.deps.fs.remove(preview.originalUri);
      this.deps.fs.remove(preview.proposalUri);
    }
  }

  // ── Notification ────────────────────────────────────────────────────────────

  /** When no chat is on screen, a notification offers the same answers (the first answer anywhere wins). */
  private notify(core: FolderCore, requestId: string): void {
    const item = pendingApproval(core, requestId);
    if (!item || this.deps.chatVisible() || this.notified.has(requestId)) return;
    this.notified.add(requestId);
    const file = isAnyFileProposalTool(item.tool);
    const more = file ? 'Review' : 'Show in Chat';
    void vscode.window
      .showInformationMessage(`${requester(item)} wants to ${describeRequest(item)}`, 'Accept', 'Reject', more)
      .then(async (choice) => {
        this.notified.delete(requestId);
        if (!choice) return;
        if (choice === more) {
          if (file) await this.show(requestId);
          else await vscode.commands.executeCommand('catalystCode.openChat');
          return;
        }
        await this.answer(requestId, choice === 'Accept' ? 'yes' : 'no');
      });
  }

  private coreOf(requestId: string): FolderCore | undefined {
    const preview = this.previews.get(requestId);
    if (preview) return preview.core;
    return this.deps.cores.all().find((c) => c.session.state.items.some((i) => i.kind === 'approval' && i.id === requestId));
  }
}

function findApproval(core: FolderCore, requestId: string): ApprovalItem | undefined {
  const item = core.session.state.items.find((i) => i.kind === 'approval' && i.id === requestId);
  return item?.kind === 'approval' ? item : undefined;
}

function pendingApproval(core: FolderCore, requestId: string): ApprovalItem | undefined {
  const item = findApproval(core, requestId);
  return item?.state === 'pending' ? item : undefined;
}

/** A child's ToolItem id without the `#n` a reused call id gets: what `subagent_tool_result{run_id, call_id}` names. */
function writeKey(toolCallId: string): string {
  return toolCallId.startsWith(CHILD_TOOL_ID_PREFIX) ? toolCallId.replace(/#\d+$/, '') : toolCallId;
}

/** A child working in its own git worktree proposes paths relative to that worktree (worktree_ready.path). */
function childWorktree(core: FolderCore, item: ApprovalItem): vscode.Uri | undefined {
  if (item.childRunId === undefined) return undefined;
  const run = core.session.state.items.find((i) => i.kind === 'subagent' && i.id === item.childRunId);
  const path = run?.kind === 'subagent' && !run.worktree?.cleaned ? run.worktree?.path : undefined;
  return path ? vscode.Uri.file(path) : undefined;
}

function requester(item: ApprovalItem): string {
  return item.childRunId !== undefined ? `Catalyst Code's ${item.agent || 'subagent'} subagent` : 'Catalyst Code';
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function describeRequest(item: ApprovalItem): string {
  const args = parseArgs(item.args);
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (item.tool === 'bash' && typeof args.command === 'string')
    return `run: ${args.command.length > 120 ? `${args.command.slice(0, 120)}…` : args.command}`;
  if (item.tool === 'write_file') return `write ${path ?? 'a file'}`;
  if (item.tool === 'edit' || item.tool === 'patch') return `edit ${path ?? 'a file'}`;
  // SCV's write: a whole-file create or replace.
  if (item.tool === 'write') return `${args.mode === 'create' ? 'create' : 'replace'} ${path ?? 'a file'}`;
  // SCV says what the call does in its own words ("Run shell command: …", a URL).
  if (item.summary) return `${item.tool}: ${item.summary.length > 160 ? `${item.summary.slice(0, 160)}…` : item.summary}`;
  return path ? `${item.tool} ${path}` : `use ${item.tool}`;
}
