import * as vscode from 'vscode';
import type { InstalledSkillInfo, MarketplaceSkillInfo } from '../protocol';
import type { SkillMarketplaceCommand } from '../client/intents/skillRequests';
import type { FolderCore } from './coreManager';

type Answer = { type: string; [field: string]: unknown };
type MainPick = vscode.QuickPickItem & ({ action: 'search' } | { action: 'installed'; skill: InstalledSkillInfo });
type ResultPick = vscode.QuickPickItem & { skill: MarketplaceSkillInfo };
type ScopePick = vscode.QuickPickItem & { scope: 'project' | 'global' };

const TITLE = 'Catalyst Code: Skill Marketplace';
const CHANGE_ANSWERS = ['skill_marketplace_changed', 'skill_marketplace_error'];

/**
 * "Browse Skill Marketplace…", keyboard-first: the third-party disclaimer (a modal) before anything else, then search,
 * install into the project or the user scope, update and remove. Installing into the project writes into the workspace:
 * that takes its own confirmation naming what is written (the model has no way to install anything).
 */
export async function browseSkillMarketplace(core: FolderCore): Promise<void> {
  if (!(await core.session.start())) return;
  let state = await ask(core, { type: 'list_marketplace_skills' }, ['skill_marketplace_state', 'skill_marketplace_error']);
  if (!state || failed(state)) return;
  if (state.disclaimer_accepted !== true) {
    if (!(await confirmDisclaimer())) return;
    state = await ask(core, { type: 'accept_skill_disclaimer' }, ['skill_marketplace_state', 'skill_marketplace_error']);
    if (!state || failed(state)) return;
  }
  const installed = Array.isArray(state.installed) ? (state.installed as InstalledSkillInfo[]) : [];
  const picked = await vscode.window.showQuickPick<MainPick>(
    [
      { label: '$(search) Search skills.sh…', action: 'search', alwaysShow: true },
      ...installed.map((skill): MainPick => ({
        label: skill.name,
        description: `${skill.scope} · ${skill.source}`,
        detail: skill.location,
        action: 'installed',
        skill,
      })),
    ],
    { title: TITLE, placeHolder: installed.length ? 'Search, or pick an installed skill to update or remove' : 'Search the marketplace' },
  );
  if (!picked) return;
  if (picked.action === 'search') return searchAndInstall(core);
  return manageInstalled(core, picked.skill);
}

async function confirmDisclaimer(): Promise<boolean> {
  const accept = 'I Understand, Continue';
  const choice = await vscode.window.showWarningMessage(
    'Skills from the marketplace are written by third parties and may be malicious.',
    {
      modal: true,
      detail:
        'A skill is instructions the agent follows, and may ship scripts. Catalyst Code does not review them: read a skill before you apply it. Accepting is remembered in ~/.config/catalyst-code/skill-explorer.json.',
    },
    accept,
  );
  return choice === accept;
}

async function searchAndInstall(core: FolderCore): Promise<void> {
  const query = await vscode.window.showInputBox({
    title: TITLE,
    prompt: 'Search skills.sh',
    placeHolder: 'e.g. testing, frontend design',
    validateInput: (v) => ([...v.trim()].length >= 2 ? undefined : 'Type at least 2 characters.'),
  });
  if (!query?.trim()) return;
  const answer = await ask(core, { type: 'search_marketplace_skills', query: query.trim() }, [
    'skill_marketplace_results',
    'skill_marketplace_error',
  ]);
  if (!answer || failed(answer)) return;
  const results = Array.isArray(answer.skills) ? (answer.skills as MarketplaceSkillInfo[]) : [];
  if (results.length === 0) return void vscode.window.showInformationMessage(`Catalyst Code: no skill matches "${query.trim()}".`);
  const picked = await vscode.window.showQuickPick<ResultPick>(
    results.map((skill) => ({
      label: skill.name,
      description: skill.source,
      detail: `${skill.installs.toLocaleString('en-US')} installs`,
      skill,
    })),
    { title: `${TITLE}: "${query.trim()}"`, placeHolder: 'Pick the skill to install', matchOnDescription: true },
  );
  if (!picked) return;
  const scope = await pickScope(core, picked.skill.name);
  if (!scope) return;
  if (scope === 'project' && !(await confirmProjectWrite(core, picked.skill))) return;
  report(
    await ask(core, { type: 'install_marketplace_skill', source: picked.skill.source, name: picked.skill.name, scope }, CHANGE_ANSWERS),
  );
}

async function pickScope(core: FolderCore, name: string): Promise<'project' | 'global' | undefined> {
  const picked = await vscode.window.showQuickPick<ScopePick>(
    [
      {
        label: 'Project',
        description: `.catalyst-code/skills/${name} in ${core.folder.name}`,
        detail: 'Shared with everyone who uses this repository',
        scope: 'project',
      },
      { label: 'User', description: `~/.catalyst-code/skills/${name}`, detail: 'Yours, in every workspace', scope: 'global' },
    ],
    { title: `${TITLE}: install ${name}`, placeHolder: 'Where to install it' },
  );
  return picked?.scope;
}

/** A project install is a change to the repository: the user says yes to it, knowing what is written. */
async function confirmProjectWrite(core: FolderCore, skill: MarketplaceSkillInfo): Promise<boolean> {
  const install = 'Install into the Workspace';
  const choice = await vscode.window.showWarningMessage(
    `Install "${skill.name}" from ${skill.source} into ${core.folder.name}?`,
    {
      modal: true,
      detail: `Its files are written to .catalyst-code/skills/${skill.name}/ and recorded in skills-lock.json at the workspace root; review them like any other change before you commit.`,
    },
    install,
  );
  return choice === install;
}

async function manageInstalled(core: FolderCore, skill: InstalledSkillInfo): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(sync) Update', detail: `Download ${skill.name} from ${skill.source} again`, action: 'update' as const },
      { label: '$(trash) Remove', detail: `Delete ${skill.location}`, action: 'remove' as const },
    ],
    { title: `${TITLE}: ${skill.name} (${skill.scope})` },
  );
  if (!picked) return;
  if (picked.action === 'remove') {
    const remove = 'Remove';
    const choice = await vscode.window.showWarningMessage(
      `Remove the skill "${skill.name}"?`,
      { modal: true, detail: `Deletes ${skill.location}.` },
      remove,
    );
    if (choice !== remove) return;
  }
  report(await ask(core, { type: `${picked.action}_marketplace_skill`, name: skill.name, scope: skill.scope }, CHANGE_ANSWERS));
}

function ask(core: FolderCore, cmd: SkillMarketplaceCommand, answers: readonly string[]): Promise<Answer | undefined> {
  return core.session.skillMarketplace(cmd, answers);
}

function failed(answer: Answer): boolean {
  if (answer.type !== 'skill_marketplace_error') return false;
  void vscode.window.showErrorMessage(`Catalyst Code: skill marketplace: ${String(answer.message ?? 'failed')}`);
  return true;
}

function report(answer: Answer | undefined): void {
  if (!answer || failed(answer)) return;
  const scope = answer.scope === 'project' ? 'the project' : 'your user skills';
  void vscode.window.showInformationMessage(`Catalyst Code: skill ${String(answer.name)} ${String(answer.action)} (${scope}).`);
}
