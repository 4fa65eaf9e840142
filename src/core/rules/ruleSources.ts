/**
 * The rules-file conventions the core reads, in precedence order: AGENTS.md first (the cross-tool standard), then the
 * files of single tools. The prompt lists them in this order and says that an earlier source wins over a later one, and
 * a file for a subfolder over the files above it. The total size cap is spent in this order too.
 */
export const RULE_SOURCES = ['agents_md', 'claude_md', 'copilot_instructions', 'clinerules', 'cursorrules'] as const;

export type RuleSource = (typeof RULE_SOURCES)[number];

export interface RuleSourceSpec {
  source: RuleSource;
  /** Who reads it, for the prompt's heading. */
  tool: string;
  /** A file name looked for in every folder of the bounded walk (nested files apply to their folder). */
  nestedName?: string;
  /** A workspace-relative path looked up at the root only. */
  rootPath?: string;
  /** The root path may also be a folder whose `*.md` files are read, sorted by name (Cline's `.clinerules/`). */
  folderOfMarkdown?: boolean;
}

export const RULE_SOURCE_SPECS: readonly RuleSourceSpec[] = [
  { source: 'agents_md', tool: 'AGENTS.md', nestedName: 'AGENTS.md' },
  { source: 'claude_md', tool: 'Claude Code', nestedName: 'CLAUDE.md' },
  { source: 'copilot_instructions', tool: 'GitHub Copilot', rootPath: '.github/copilot-instructions.md' },
  { source: 'clinerules', tool: 'Cline', rootPath: '.clinerules', folderOfMarkdown: true },
  { source: 'cursorrules', tool: 'Cursor', rootPath: '.cursorrules' },
];

export function isRuleSource(v: string): v is RuleSource {
  return (RULE_SOURCES as readonly string[]).includes(v);
}
