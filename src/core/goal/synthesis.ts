/**
 * Classic mode after the last wave (upstream's `finish_synthesis_with_wrapup`, research A:886-892): → synthesizing, a
 * wrap-up turn in the session's turn slot when it is free within the wait, then → done. The deterministic report is
 * sent when the wrap-up did not run or said too little to stand as the summary.
 */
import { followUpInfo } from './ceoFlow';
import { completionReport } from './completionReport';
import { stepArtifactPath } from './goalArtifacts';
import type { GoalController } from './goalController';
import { startGoalTurn, waitForTurnSlot } from './goalTurns';
import type { Goal } from './goalTypes';
import { wrapUpPrompt } from './wrapUpPrompt';

/** A wrap-up shorter than this is no summary: the deterministic report is sent too (upstream's RICH_WRAPUP_MIN_CHARS). */
export const RICH_WRAPUP_MIN_CHARS = 200;

export async function finishSynthesis(ctl: GoalController, outcome: string, anyFailed: boolean): Promise<void> {
  const goal = ctl.goal!;
  if (!ctl.transition('synthesizing', `workers finished${outcome} — summarizing`)) return;
  ctl.host.emit({ type: 'info', message: followUpInfo(anyFailed) });
  const free = await waitForTurnSlot(ctl);
  if (!ctl.still(goal, 'synthesizing')) return;
  const artifact = (id: string) => stepArtifactPath(ctl.host.workspace, goal.id, id);
  if (free) {
    const started = startGoalTurn(ctl, {
      prompt: wrapUpPrompt(goal, artifact),
      onEnd: (scope, text) => {
        if (!ctl.still(goal, 'synthesizing')) return;
        if (scope.cancelled) ctl.cancel('goal wrap-up aborted');
        else complete(ctl, goal, outcome, text.trim().length);
      },
    });
    if (started) return;
  } else {
    ctl.host.emit({ type: 'info', message: 'Goal wrapup finished without parent turn (another turn is running)' });
  }
  complete(ctl, goal, outcome, undefined);
}

/** The deterministic report unless the wrap-up said enough, then → done. */
function complete(ctl: GoalController, goal: Goal, outcome: string, wrapUpChars: number | undefined): void {
  if (wrapUpChars === undefined || wrapUpChars < RICH_WRAPUP_MIN_CHARS)
    ctl.emit({ type: 'goal_completion_summary', text: completionReport(goal, (id) => stepArtifactPath(ctl.host.workspace, goal.id, id)) });
  ctl.transition('done', `goal complete${outcome}`);
  ctl.emitWorkState();
}
