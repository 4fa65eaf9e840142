/**
 * The CEO (Control Center) turns' prompts, in our own words after upstream's `goal_ceo.rs` (research A:893-905): the
 * self-review of a fresh plan, and the verification of a deployed one against its SUMMARY.md. Both end in a verdict line
 * that `parseCeoVerdict` reads.
 */
import type { Goal } from './goalTypes';

export const CEO_PERSONA = [
  '# Role',
  'You run this goal end to end without the user: nobody answers questions while it runs. Decide for yourself, say what you',
  'assumed, and hold the work to the goal and its validation criteria.',
].join('\n');

/** What `ask` answers in a CEO turn (upstream answers it with a fixed text too). */
export const CEO_ASK_ANSWER =
  'Nobody will answer: this goal runs without the user. Make the most reasonable decision yourself, note the assumption, and go on.';

export function selfReviewPrompt(goal: Goal): string {
  const plan = goal.plan!;
  const steps = plan.steps.map((s) => {
    const deps = s.depends_on.length ? ` (after ${s.depends_on.join(', ')})` : '';
    return `- ${s.id} [${s.agent}] ${s.title}${deps}: ${s.task}`;
  });
  return [
    CEO_PERSONA,
    '',
    '# Plan self-review',
    'Check the plan below against the goal before any of it runs. Do not change files and do not write a new plan in this turn.',
    '',
    '## Goal',
    goal.settings.goal,
    '',
    '## Plan',
    plan.summary,
    ...steps,
    ...(plan.risks.length ? ['', '## Risks', ...plan.risks.map((r) => `- ${r}`)] : []),
    '',
    '## Validation criteria',
    ...(plan.validation.length ? plan.validation.map((v) => `- ${v}`) : ['(none specified)']),
    '',
    '## Your answer',
    'Say whether the steps, in this order and with these agents, can meet the goal and every criterion. Then end with exactly one line:',
    '`VERDICT: PASS` when the plan can be deployed as it is, or `VERDICT: REVISE` followed by a `## Fixes` list of what the next plan must change.',
  ].join('\n');
}

export function verifyPrompt(goal: Goal, summaryPath: string): string {
  const criteria = goal.plan?.validation ?? [];
  return [
    CEO_PERSONA,
    '',
    '# Goal verification',
    `The plan's steps have run. Their outputs are collected in ${summaryPath}: read it with read_file first, then check the workspace itself.`,
    '',
    '## Goal',
    goal.settings.goal,
    '',
    '## Validation criteria',
    ...(criteria.length ? criteria.map((v) => `- ${v}`) : ['(none specified: judge against the goal itself)']),
    '',
    '## Your answer',
    'For each criterion, give the evidence you checked (a file and line, or a command and its result). Do not fix anything in this turn.',
    'Then end with exactly one line: `VERDICT: CERTIFIED` when every criterion is met, or `VERDICT: FAIL` followed by a',
    '`## Remaining gaps` list, one line per gap, of what is still missing.',
  ].join('\n');
}
