import type { GoalVerdictView, GoalView } from '../../src/shared/goalState';
import { badge, codicon, h, replaceChildren } from '../infra/dom';
import type { HighlightQueue } from '../markdown/highlightQueue';
import { MarkdownView } from '../markdown/markdownView';
import { OPEN_PATH_ATTR } from '../transcript/itemView';
import { VERDICT_TITLES, summaryMarkdown } from './goalModel';
import { GOAL_TEST_IDS } from './testIds';
import { listSection } from './listSection';

/**
 * The judgements and the outcome: each verdict as a card (PASS/FAIL, its summary, the remaining gaps, the evidence files
 * as links that open them), the certification banner, and the completion summary as
 * Markdown through the chat's renderer.
 */
export class OutcomeView {
  readonly root: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly verdicts: HTMLElement;
  private readonly summarySection: HTMLElement;
  private readonly markdown: MarkdownView;
  private renderedVerdicts: readonly GoalVerdictView[] | undefined;
  private renderedBanner = '';
  private renderedSummary: string | undefined;

  constructor(highlighter: HighlightQueue) {
    this.banner = h('div', { class: 'goal-certified', 'data-testid': GOAL_TEST_IDS.certified, role: 'status', hidden: true });
    this.verdicts = h('div', { class: 'goal-verdicts', 'aria-label': 'Verdicts' });
    this.markdown = new MarkdownView(document, highlighter);
    this.summarySection = h(
      'section',
      { class: 'goal-summary', 'data-testid': GOAL_TEST_IDS.summary, 'aria-label': 'Completion summary', hidden: true },
      h('h2', { class: 'goal-section-title' }, 'Summary'),
      this.markdown.root,
    );
    this.root = h('div', { class: 'goal-outcome' }, this.banner, this.verdicts, this.summarySection);
  }

  update(goal: GoalView): void {
    this.renderBanner(goal);
    if (goal.verdicts !== this.renderedVerdicts) {
      this.renderedVerdicts = goal.verdicts;
      replaceChildren(this.verdicts, ...goal.verdicts.map(verdictCard));
    }
    const summary = goal.completionSummary ?? '';
    this.summarySection.hidden = summary.trim() === '';
    if (summary !== this.renderedSummary) {
      this.renderedSummary = summary;
      this.markdown.update(summaryMarkdown(summary), false);
    }
  }

  private renderBanner(goal: GoalView): void {
    const key = `${goal.certified}\0${goal.iteration}`;
    if (key === this.renderedBanner) return;
    this.renderedBanner = key;
    this.banner.hidden = !goal.certified;
    if (goal.certified)
      replaceChildren(
        this.banner,
        codicon('verified-filled'),
        h('span', {}, `Certified: the verifier found the goal met${goal.iteration ? ` (iteration ${goal.iteration})` : ''}.`),
      );
  }
}

function verdictCard(verdict: GoalVerdictView): HTMLElement {
  const gaps = verdict.remainingGaps ?? [];
  const evidence = verdict.evidencePaths ?? [];
  return h(
    'article',
    {
      class: 'goal-verdict',
      'data-testid': GOAL_TEST_IDS.verdict,
      'data-kind': verdict.kind,
      'data-ok': String(verdict.ok),
      'aria-label': `${VERDICT_TITLES[verdict.kind]}: ${verdict.ok ? 'PASS' : 'FAIL'}`,
    },
    h(
      'div',
      { class: 'goal-verdict-head' },
      codicon(verdict.ok ? 'pass' : 'error', 'goal-verdict-icon'),
      h('span', { class: 'goal-verdict-title' }, VERDICT_TITLES[verdict.kind]),
      verdict.iteration !== undefined ? h('span', { class: 'goal-hint' }, `iteration ${verdict.iteration}`) : null,
      badge(verdict.ok ? 'PASS' : 'FAIL', verdict.ok ? 'ok' : 'error'),
    ),
    verdict.summary ? h('div', { class: 'goal-verdict-summary' }, verdict.summary) : null,
    listSection('Remaining gaps', gaps),
    evidence.length > 0
      ? h(
          'div',
          { class: 'goal-list-section' },
          h('div', { class: 'section-title' }, 'Evidence'),
          h(
            'ul',
            { class: 'goal-evidence' },
            ...evidence.map((path) =>
              h(
                'li',
                {},
                h(
                  'a',
                  { href: '#', class: 'goal-evidence-link', [OPEN_PATH_ATTR]: path, title: `Open ${path}` },
                  codicon('file'),
                  ` ${path}`,
                ),
              ),
            ),
          ),
        )
      : null,
  );
}
