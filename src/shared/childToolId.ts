export const CHILD_TOOL_ID_PREFIX = 'sa:';

/** The ToolItem id of a child's call: `sa:<run id>:<call id>` (models reuse call ids like `call_1` across children). */
export function childToolId(runId: string, callId: string): string {
  return `${CHILD_TOOL_ID_PREFIX}${runId}:${callId}`;
}
