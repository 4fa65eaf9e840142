/**
 * The full proposed content of a write_file / edit / patch call (or SCV's write), for the diff editor's proposal side:
 * rebuilt from the tool_call's full raw arguments with the same semantics the core uses (proposeFileContent), else from
 * the unified diff the approval_request carried, when that diff is a real one.
 */
import { applyUnifiedPatch, isAnyFileProposalTool, proposeFileContent } from '../../protocol/edits';

export type ProposalSource = 'tool_call' | 'core_diff';
export type BuiltProposal =
  { ok: true; content: string; source: ProposalSource; /** Why the fallback was used. */ note?: string } | { ok: false; error: string };

/**
 * Rebuilds a file tool's full proposed content from the tool_call's FULL raw JSON args, applied to currentText (null =
 * the file does not exist). If that fails (bad JSON, search text not found, ...) and coreDiff (the approval_request's
 * unified diff) is usable — not the "diff omitted for size" placeholder, not truncated — applies it to currentText
 * instead (source 'core_diff', note says why). Else ok:false with a clear error.
 */
export function buildProposal(input: { tool: string; argsJson: string; currentText: string | null; coreDiff?: string }): BuiltProposal {
  const { tool, argsJson, currentText, coreDiff } = input;
  if (!isAnyFileProposalTool(tool))
    return { ok: false, error: `${tool || 'this tool'} does not propose file content; only write_file, edit, patch and SCV's write do` };
  const args = parseArgs(argsJson);
  let reason: string;
  if (typeof args === 'string') {
    reason = args;
  } else {
    const path = typeof args.path === 'string' && args.path !== '' ? args.path : 'the file';
    const result = proposeFileContent(tool, args, currentText, path);
    if (result.ok) return { ok: true, content: result.content, source: 'tool_call' };
    reason = result.error;
  }
  // SCV's approvals carry no diff to fall back on, and its write's own checks (mode, expected_sha256) are the point.
  if (tool === 'write') return { ok: false, error: `${reason}.` };
  const diffProblem = unusableDiffReason(coreDiff);
  if (diffProblem) return { ok: false, error: `Cannot rebuild the proposed ${tool} change: ${reason} (and ${diffProblem}).` };
  const fromDiff = applyUnifiedPatch(currentText ?? '', coreDiff as string);
  if (!fromDiff.ok) {
    return {
      ok: false,
      error: `Cannot rebuild the proposed ${tool} change: ${reason} (and the core's diff does not apply to the file: ${fromDiff.error}).`,
    };
  }
  return {
    ok: true,
    content: fromDiff.content,
    source: 'core_diff',
    note: `Rebuilt from the core's diff because the tool call's arguments could not be applied: ${reason}`,
  };
}

/** The arguments object, or why there is none. A JSON string holding the object (double-encoded) is accepted. */
function parseArgs(json: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch (error) {
    return `the tool call's arguments are not valid JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return "the tool call's arguments are not a JSON object";
  return value as Record<string, unknown>;
}

const HUNK_HEADER = /^@@+ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;

/** Why the approval's diff cannot stand in for the arguments, or undefined when it can. */
function unusableDiffReason(diff: string | undefined): string | undefined {
  if (diff === undefined || diff.trim() === '') return 'the approval carried no diff';
  if (/diff omitted for size/.test(diff) || /^… large change \(/m.test(diff)) return "the core's diff was omitted for size";
  if (/^… diff truncated …$/m.test(diff)) return "the core's diff is truncated";
  if (!HUNK_HEADER.test(diff)) return "the core's diff has no hunks";
  return undefined;
}
