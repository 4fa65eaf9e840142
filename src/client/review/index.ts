// Pure logic of reviewing a file-edit approval in the diff editor (no vscode imports; the glue lives in src/vscode/review).
export { buildProposal, type BuiltProposal, type ProposalSource } from './proposalBuilder';
export { reviewHunks, rejectHunkEdit, rejectHunk, hunkAtLine, type ReviewHunk } from './reviewHunks';
export { ProposalReview, type ReviewAnswer } from './proposalReview';
export { checkBeforeAnswer, rebaseChange, dirtyChoices, type PreAnswerCheck, type DirtyChoice } from './writeSafety';
export { perChangeOffReason } from './perChangeReview';
export { proposalTitle, type ProposalTitleParts } from './proposalTitle';
