import * as vscode from 'vscode';
import { supports } from '../../shared/coreCapabilities';
import { goalPhaseActive } from '../../shared/goalState';
import { UI_CAPABILITIES } from '../../shared/sessionState';
import { type HandlersFor, registerReportingCommands } from '../commands';
import type { CoreManager, FolderCore } from '../coreManager';
import { GOAL_COMMANDS } from '../ids';
import type { ControlCenterPanel } from './controlCenterPanel';

export interface GoalCommandDeps {
  cores: CoreManager;
  controlCenter: ControlCenterPanel;
  log: vscode.LogOutputChannel;
}

type DeployPick = vscode.QuickPickItem & { autoDeploy: boolean; ceoMode: boolean };

/** "Start Goal…", "Open Goal Control Center", "Cancel Goal". */
export function registerGoalCommands(d: GoalCommandDeps): vscode.Disposable[] {
  const handlers: HandlersFor<typeof GOAL_COMMANDS> = {
    [GOAL_COMMANDS.startGoal]: async () => {
      const core = goalCore(d.cores);
      if (core && (await startGoalFlow(core))) d.controlCenter.open();
    },
    [GOAL_COMMANDS.openControlCenter]: () => void d.controlCenter.open(),
    [GOAL_COMMANDS.cancelGoal]: () => {
      const core = d.cores.active();
      const goal = core?.session.state.goal;
      if (!core || !goal || !goalPhaseActive(goal.phase))
        return void vscode.window.showInformationMessage('Catalyst Code: no goal is running.');
      core.session.goalAction('cancel');
    },
  };
  return registerReportingCommands(handlers, d.log);
}

/** The active core, when it has goal mode; otherwise the user is told why nothing happens. */
function goalCore(cores: CoreManager): FolderCore | undefined {
  const core = cores.ensureActive();
  if (!core) {
    void vscode.window.showInformationMessage('Catalyst Code: open a folder first; goal mode works inside a workspace folder.');
    return undefined;
  }
  if (!supports(core.session.state, UI_CAPABILITIES.goal)) {
    void vscode.window.showInformationMessage(
      `Catalyst Code: ${core.session.state.core.kind === 'scv' ? 'an SCV server' : 'this core'} has no goal mode.`,
    );
    return undefined;
  }
  return core;
}

/** The goal's text, then whether its plan waits for review (the default) or deploys at once, and CEO mode; true once sent. */
async function startGoalFlow(core: FolderCore): Promise<boolean> {
  if (!(await core.session.start())) return false;
  const goal = await vscode.window.showInputBox({
    title: 'Catalyst Code: Start Goal',
    prompt: 'What should be achieved? A planner writes a plan of steps; workers carry them out in waves.',
    placeHolder: 'e.g. Add input validation to every API handler, with tests',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim().length >= 4 ? undefined : 'Describe the goal (at least 4 characters).'),
  });
  if (!goal?.trim()) return false;
  const picked = await vscode.window.showQuickPick<DeployPick>(
    [
      {
        label: 'Review the plan first',
        description: 'default',
        detail: 'The plan waits in the Control Center for Approve, Revise or Cancel.',
        autoDeploy: false,
        ceoMode: false,
      },
      { label: 'Deploy at once', detail: 'Workers start as soon as the plan is written.', autoDeploy: true, ceoMode: false },
      {
        label: 'Review the plan first, then verify until certified',
        description: 'CEO mode',
        detail: 'After the workers, a verifier judges the result against the goal; gaps are re-planned until it is certified.',
        autoDeploy: false,
        ceoMode: true,
      },
    ],
    { title: 'Catalyst Code: Start Goal', placeHolder: 'When the plan is written…', ignoreFocusOut: true },
  );
  if (!picked) return false;
  return core.session.startGoal({ goal, autoDeploy: picked.autoDeploy, ceoMode: picked.ceoMode }) !== false;
}
