/** The system prompt's "Project rules" section: each file under a heading naming its path and the folder it applies to. */
import { RULE_SOURCE_SPECS, type RuleSource } from '../config/ruleSources';

export interface PromptRulesFile {
  path: string;
  source: RuleSource;
  scope: string;
  text: string;
  /** What its frontmatter says it applies to (`files matching …`), instead of its folder. */
  when?: string;
}

export const RULES_SECTION_HEADING = '# Project rules';

const PREAMBLE = [
  RULES_SECTION_HEADING,
  '',
  "The repository carries instruction files for coding agents; follow them as this project's conventions.",
  'Precedence: a file for a subfolder applies to the files under that folder and, where it conflicts, wins over the files above it;',
  "AGENTS.md wins over the files of other tools (listed after it). The user's own instructions in this conversation win over all of them.",
].join('\n');

export function rulesSection(files: readonly PromptRulesFile[]): string {
  if (files.length === 0) return '';
  return [PREAMBLE, ...files.map(fileBlock)].join('\n\n');
}

export function fileBlock(file: PromptRulesFile): string {
  return `${fileHeading(file)}\n\n${file.text.trimEnd()}`;
}

function fileHeading(file: PromptRulesFile): string {
  const tool = RULE_SOURCE_SPECS.find((s) => s.source === file.source)?.tool;
  const applies = file.when
    ? `applies to ${file.when}`
    : file.scope === '.'
      ? 'applies to the whole workspace'
      : `applies to ${file.scope}/`;
  const from = tool && tool !== 'AGENTS.md' ? `${tool}; ` : '';
  return `## ${file.path} (${from}${applies})`;
}
