import * as vscode from 'vscode';
import type { ApprovalEscalations, ApprovalMode } from '../shared/sessionState';
import { escalationLines } from '../shared/escalationText';
import type { FolderCore } from './coreManager';

type ModeItem = vscode.QuickPickItem & { mode?: ApprovalMode; clear?: true };

const MODES: { mode: ApprovalMode; label: string; detail: string }[] = [
  {
    mode: 'destructive',
    label: 'Ask for destructive actions',
    detail: 'Edits, deletes and shell commands wait for your approval; reading is free (default).',
  },
  { mode: 'always', label: 'Ask for everything', detail: 'Every tool call waits for your approval, reads included.' },
  { mode: 'never', label: 'Never ask', detail: 'The agent acts without asking. It still cannot leave the workspace.' },
];

/**
 * "Set Approval Mode…": the three modes (the current one checked), then what no longer asks on top of it this session —
 * tool kinds approved with Always and the allow rules granted with Accept for Session / Allow pattern — with
 * "Clear escalations" when the core can clear them (ours: clear_approval_escalations).
 */
export async function pickApprovalMode(core: FolderCore): Promise<void> {
  const current = core.session.state.approvalMode;
  const escalations = await core.session.approvalEscalations();
  const picked = await vscode.window.showQuickPick<ModeItem>(modeItems(current, escalations, canClear(core)), {
    title: 'Catalyst Code: Approval Mode',
    placeHolder: `Current: ${current}`,
  });
  if (picked?.mode) await core.session.setApprovalMode(picked.mode);
  else if (picked?.clear) await clearEscalations(core);
}

async function clearEscalations(core: FolderCore): Promise<void> {
  const left = await core.session.approvalEscalations(true);
  if (left && left.kinds.length === 0 && left.patterns.length === 0)
    void vscode.window.showInformationMessage('Catalyst Code: escalations cleared; the approval mode alone decides again.');
}

function canClear(core: FolderCore): boolean {
  return core.session.capabilities().has('approval_escalations');
}

function modeItems(current: ApprovalMode, escalations: ApprovalEscalations | undefined, clearable: boolean): ModeItem[] {
  const items: ModeItem[] = MODES.map((m) => ({
    mode: m.mode,
    label: `${m.mode === current ? '$(check) ' : ''}${m.label}`,
    description: m.mode,
    detail: m.detail,
  }));
  const lines = escalationLines(escalations);
  if (lines.length === 0) return items;
  items.push({ label: 'Allowed without asking in this session', kind: vscode.QuickPickItemKind.Separator });
  for (const line of lines) items.push({ label: `$(unlock) ${line.label}`, description: line.description });
  if (clearable)
    items.push({
      label: '$(clear-all) Clear escalations',
      detail: 'Ask again as the mode says (the configured permission rules stay).',
      clear: true,
    });
  else items.push({ label: '$(info) This core cannot clear them: a new session drops the Always ones, a restart the rest.' });
  return items;
}
