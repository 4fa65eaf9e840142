import type { GoalView } from '../../src/shared/goalState';
import type { WebviewToHost } from '../../src/shared/webviewMessages';
import { badge, codicon, h, replaceChildren, vscodeButton } from '../infra/dom';
import { PHASE_TEXT, phaseTone, stepProgress } from './goalModel';
import { GOAL_TEST_IDS } from './testIds';

/**
 * The chat's compact view of the session's goal, above the conversation: its text, phase and progress, and a button to
 * the Control Center, where the plan is reviewed and the workers' runs are shown (they take no room in the chat).
 */
export class GoalCard {
  readonly root: HTMLElement;
  private readonly body: HTMLElement;
  private rendered = '';

  constructor(post: (message: WebviewToHost) => void) {
    this.body = h('div', { class: 'goal-card-body' });
    const open = vscodeButton({
      label: 'Control Center',
      icon: 'link-external',
      secondary: true,
      testId: GOAL_TEST_IDS.openControlCenter,
      ariaLabel: 'Open the goal in the Control Center',
      onClick: () => post({ type: 'goalAction', action: 'openControlCenter' }),
    });
    this.root = h(
      'section',
      { class: 'goal-card', 'data-testid': GOAL_TEST_IDS.chatCard, 'aria-label': 'Goal', hidden: true },
      this.body,
      open,
    );
  }

  update(goal: GoalView | undefined): void {
    this.root.hidden = !goal;
    if (!goal) return;
    const progress = goalProgressText(goal);
    const key = `${goal.id}\0${goal.goal}\0${goal.phase}\0${goal.certified}\0${progress}`;
    if (key === this.rendered) return;
    this.rendered = key;
    this.root.dataset.phase = goal.phase;
    replaceChildren(
      this.body,
      h(
        'div',
        { class: 'goal-card-line' },
        codicon('target'),
        h('span', { class: 'goal-card-goal', title: goal.goal }, goal.goal),
        badge(goal.certified ? 'Certified' : PHASE_TEXT[goal.phase], goal.certified ? 'ok' : phaseTone(goal)),
      ),
      progress ? h('div', { class: 'goal-card-progress' }, progress) : null,
    );
  }
}

/** "Plan ready: 3 steps wait for approval", "2/5 steps finished · wave 2", else the core's last phase message. */
export function goalProgressText(goal: GoalView): string {
  const steps = goal.plan?.steps ?? [];
  if (goal.phase === 'plan_ready' && steps.length > 0) return `${steps.length} step${steps.length === 1 ? '' : 's'} wait for approval`;
  if (steps.length > 0 && steps.some((s) => s.status !== 'pending')) {
    const p = stepProgress(steps);
    return `${p.finished}/${p.total} steps finished${p.failed ? `, ${p.failed} failed` : ''}${goal.wave && goal.phase === 'running' ? ` · wave ${goal.wave.index}` : ''}`;
  }
  return goal.message ?? '';
}
