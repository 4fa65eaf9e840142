import * as vscode from 'vscode';
import type { SkillView } from '../shared/sessionState';
import type { FolderCore } from './coreManager';

type SkillPick = vscode.QuickPickItem & { skill: string };

/**
 * "Apply Skill…": a QuickPick of the core's skills (description and scope: a project's skills come with the repository),
 * then an optional task; the core builds the turn's prompt from the skill's file (apply_skill), any core speaking v2.
 */
export async function pickAndApplySkill(core: FolderCore): Promise<boolean> {
  // From the palette the core may not be running yet; a failed start ends up in the chat's state.
  if (!(await core.session.start())) return false;
  const skills = await core.session.fetchSkills();
  if (!skills) return false;
  if (skills.length === 0) {
    void vscode.window.showInformationMessage(
      'Catalyst Code: no skills yet. Add .catalyst-code/skills/<name>/SKILL.md to the workspace (or ~/.catalyst-code/skills), or browse the skill marketplace.',
    );
    return false;
  }
  const picked = await vscode.window.showQuickPick<SkillPick>(skills.map(skillPick), {
    title: 'Catalyst Code: Apply Skill',
    placeHolder: 'Pick the skill to apply',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return false;
  const task = await vscode.window.showInputBox({
    title: `Catalyst Code: Apply ${picked.skill}`,
    prompt: 'The task to apply it to (optional: leave empty to apply the skill as it is)',
    ignoreFocusOut: true,
  });
  if (task === undefined) return false;
  return core.session.applySkill(picked.skill, task) !== false;
}

function skillPick(skill: SkillView): SkillPick {
  return { label: skill.name, description: skill.scope, detail: skill.description || undefined, skill: skill.name };
}
