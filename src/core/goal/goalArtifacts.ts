/** Where a goal keeps its step outputs and SUMMARY.md: `<ws>/.catalyst-code/goal-ux/artifacts/<goal id>/` (upstream's place). */
import { join } from 'node:path';

const ARTIFACTS = join('.catalyst-code', 'goal-ux', 'artifacts');

/** Workspace-relative: what the models and the summaries name. */
export function relativeArtifactPath(goalId: string, file: string): string {
  return join(ARTIFACTS, safeName(goalId), file);
}

export function relativeStepArtifactPath(goalId: string, stepId: string): string {
  return relativeArtifactPath(goalId, `${safeName(stepId)}.md`);
}

export function stepArtifactPath(workspace: string, goalId: string, stepId: string): string {
  return join(workspace, relativeStepArtifactPath(goalId, stepId));
}

/** A path segment: anything outside [A-Za-z0-9_-] becomes '-', so an id never climbs out of the folder. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '-') || '-';
}
