/** One agent a `subagent` call can run: a markdown file's frontmatter and body, or a builtin (research A:46-123). */
export interface AgentDefinition {
  /** The first token of the `name:` key; lookups match it exactly or by its last `.`-segment. */
  name: string;
  description: string;
  /** The declared tools, aliases resolved (read → read_file…); `finish` is always added by the runner. */
  tools: string[];
  model?: string;
  fallbackModels: string[];
  /** The reasoning effort of the child's requests (default medium). */
  thinking: string;
  /** `replace`: [project context] + body; `append`: the base system prompt + body. */
  systemPromptMode: 'replace' | 'append';
  inheritProjectContext: boolean;
  defaultContext: 'fresh' | 'fork';
  skills: string[];
  /** A workspace-relative file the child's final text is written to (through the gate, as a write_file proposal). */
  output?: string;
  /** Workspace-relative files read into the child's first message. */
  defaultReads: string[];
  /** Caps the nesting depth of this agent's subtree. */
  maxSubagentDepth?: number;
  disabled: boolean;
  source: AgentSource;
  /** The markdown body: the agent's prompt. */
  prompt: string;
  /** The file it came from; undefined for a builtin. */
  path?: string;
}

export type AgentSource = 'builtin' | 'user' | 'project';

/** What a `subagent` management action (list, create, steer…) answers the model. */
export interface ActionAnswer {
  ok: boolean;
  output: string;
}
