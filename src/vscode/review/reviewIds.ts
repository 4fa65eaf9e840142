/** Commands of the review diff, shared with package.json `contributes` (src/vscode/manifestCommands.test.ts checks both ways). */
export const REVIEW_COMMANDS = {
  accept: 'catalystCode.review.accept',
  reject: 'catalystCode.review.reject',
  acceptForSession: 'catalystCode.review.acceptForSession',
  always: 'catalystCode.review.always',
  acceptHunk: 'catalystCode.review.acceptHunk',
  rejectHunk: 'catalystCode.review.rejectHunk',
  /** The chat card's "Review in Diff Editor" (argument: the request id). */
  show: 'catalystCode.reviewApproval',
} as const;
