export { applyEdits, type EditSpec, type EditResult } from './editApply';
export { applyUnifiedPatch, type PatchResult } from './patchApply';
export { makeUnifiedDiff } from './unifiedDiff';
export { computeHunks, revertHunk, type Hunk } from './hunks';
