export { applyEdits, type EditSpec, type EditResult } from './editApply';
export { applyUnifiedPatch, type PatchResult } from './patchApply';
export { makeUnifiedDiff } from './unifiedDiff';
export { computeHunks, revertHunk, type Hunk } from './hunks';
export { proposeFileContent, parseEditSpecs, isFileProposalTool, type FileProposalTool, type ProposalResult } from './proposal';
