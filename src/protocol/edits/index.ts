export { applyEdits, type EditSpec, type EditResult } from './editApply';
export { applyUnifiedPatch, type PatchResult } from './patchApply';
export { makeUnifiedDiff } from './unifiedDiff';
export { computeHunks, revertHunk, type Hunk } from './hunks';
export {
  proposeFileContent,
  parseEditSpecs,
  isFileProposalTool,
  isAnyFileProposalTool,
  type FileProposalTool,
  type ScvFileTool,
  type AnyFileProposalTool,
  type ProposalResult,
} from './proposal';
