/**
 * The rules-file conventions the core reads, in precedence order: AGENTS.md first (the cross-tool standard), then the
 * files of single tools. The prompt lists them in this order and says that an earlier source wins over a later one, and
 * a file for a subfolder over the files above it. The total size cap is spent in this order too.
 */
export const RULE_SOURCES = [
  'agents_md',
  'claude_md',
  'copilot_instructions',
  'copilot_path_instructions',
  'clinerules',
  'cursor_project_rules',
  'cursorrules',
] as const;

export type RuleSource = (typeof RULE_SOURCES)[number];

export interface RuleSourceSpec {
  source: RuleSource;
  /** Who reads it, for the prompt's heading. */
  tool: string;
  /** A file name looked for in every folder of the bounded walk (nested files apply to their folder). */
  nestedName?: string;
  /** A workspace-relative path looked up at the root only. */
  rootPath?: string;
  /** The root path may be (or, with `folderOnly`, must be) a folder whose files with this suffix are read, sorted by name. */
  folderSuffix?: string;
  folderOnly?: boolean;
  /** The files start with a frontmatter that says when they apply (rulesFrontmatter.ts). */
  frontmatter?: 'copilot' | 'cursor';
}

export const RULE_SOURCE_SPECS: readonly RuleSourceSpec[] = [
  { source: 'agents_md', tool: 'AGENTS.md', nestedName: 'AGENTS.md' },
  { source: 'claude_md', tool: 'Claude Code', nestedName: 'CLAUDE.md' },
  { source: 'copilot_instructions', tool: 'GitHub Copilot', rootPath: '.github/copilot-instructions.md' },
  {
    source: 'copilot_path_instructions',
    tool: 'GitHub Copilot',
    rootPath: '.github/instructions',
    folderSuffix: '.instructions.md',
    folderOnly: true,
    frontmatter: 'copilot',
  },
  { source: 'clinerules', tool: 'Cline', rootPath: '.clinerules', folderSuffix: '.md' },
  {
    source: 'cursor_project_rules',
    tool: 'Cursor',
    rootPath: '.cursor/rules',
    folderSuffix: '.mdc',
    folderOnly: true,
    frontmatter: 'cursor',
  },
  { source: 'cursorrules', tool: 'Cursor', rootPath: '.cursorrules' },
];

export function isRuleSource(v: string): v is RuleSource {
  return (RULE_SOURCES as readonly string[]).includes(v);
}
