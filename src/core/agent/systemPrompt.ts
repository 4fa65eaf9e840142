export interface SystemPromptInput {
  workspace: string;
  approvalMode: string;
  memories: string[];
  /** The main agent's skill manifest (skills/skillPrompts.ts); a child's base prompt goes without it, as upstream's. */
  skillManifest?: string;
  /** The project rules section (rules/rulesPrompt.ts): the repository's AGENTS.md and other agents' instruction files. */
  projectRules?: string;
  /** The enabled plugins' `system_prompt` texts (plugins/corePlugins.ts `promptBlock`); the main agent's only. */
  pluginContext?: string;
  date?: Date;
}

/** The system prompt of every turn: who the agent is, where it works, how its tools behave, and saved memories. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts = [
    "You are Catalyst Code, a coding agent working inside the user's project through tools.",
    `Workspace root: ${input.workspace}. All tool paths are relative to it; paths outside it are refused.`,
    `Today is ${(input.date ?? new Date()).toISOString().slice(0, 10)}. Approval mode: ${input.approvalMode}.`,
    [
      'Guidelines:',
      '- Read a file before you edit it. Prefer `edit` (search/replace) for small changes, `write_file` for new files, `patch` for multi-hunk diffs.',
      "- Destructive tools may need the user's approval; a denied call means the user does not want that change — do not retry it unchanged.",
      '- The user may modify your proposed edit before applying it; the tool result then tells you what was actually written.',
      '- Keep answers concise; use Markdown with fenced code blocks.',
    ].join('\n'),
  ];
  if (input.skillManifest) parts.push(input.skillManifest);
  if (input.projectRules) parts.push(input.projectRules);
  if (input.memories.length) parts.push('Memories the user asked you to keep:\n' + input.memories.map((m) => `- ${m}`).join('\n'));
  if (input.pluginContext) parts.push(input.pluginContext);
  return parts.join('\n\n');
}
