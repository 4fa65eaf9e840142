/** The classic wrap-up turn's prompt (after upstream's `build_wrapup_prompt`, research A:888-890), in our own words. */
import { completionReport } from './completionReport';
import type { Goal } from './goalTypes';

export function wrapUpPrompt(goal: Goal, artifactPath: (stepId: string) => string): string {
  return [
    '# Goal wrap-up',
    "The goal's steps have run. Their results follow; each step's full output is in the file named under it.",
    '',
    completionReport(goal, artifactPath),
    '',
    'Write the user a summary of what was done, what failed and what is left, reading an output file where a result is unclear.',
    'Do not plan or start new work in this turn. When the summary is written, call finish.',
  ].join('\n');
}
