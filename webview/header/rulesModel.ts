/** What the header's rules chip and its list say about the project rules in effect (pure). */
import type { RulesFileView, RulesView } from '../../src/shared/sessionState';

const SOURCE_LABELS: Record<string, string> = {
  agents_md: 'AGENTS.md',
  claude_md: 'Claude Code',
  copilot_instructions: 'GitHub Copilot',
  copilot_path_instructions: 'GitHub Copilot',
  clinerules: 'Cline',
  cursor_project_rules: 'Cursor',
  cursorrules: 'Cursor',
};

/** The chip, or undefined when no rules file is in effect (nothing to show). */
export function rulesChipOf(rules: RulesView | undefined): { label: string; title: string } | undefined {
  if (!rules || rules.files.length === 0) return undefined;
  const tokens = rules.files.reduce((sum, f) => sum + f.tokens, 0);
  const cut = rules.files.filter((f) => f.truncated).length;
  const parts = [
    `${rules.files.length} project rules file${rules.files.length === 1 ? '' : 's'} in the system prompt, ~${formatTokens(tokens)} tokens`,
  ];
  if (cut > 0) parts.push(`${cut} cut at the size cap`);
  return { label: `Rules: ${rules.files.length}`, title: parts.join('; ') };
}

export interface RulesRowView {
  path: string;
  detail: string;
  truncated: boolean;
}

export function rulesRowOf(file: RulesFileView): RulesRowView {
  const applies = file.scope === '.' ? 'whole workspace' : `${file.scope}/`;
  const source = SOURCE_LABELS[file.source] ?? file.source;
  const from = source && source !== 'AGENTS.md' ? `${source} · ` : '';
  return { path: file.path, detail: `${from}${applies} · ~${formatTokens(file.tokens)} tokens`, truncated: file.truncated };
}

/** The list's footer: files found but not read, sources turned off. */
export function rulesFooterOf(rules: RulesView): string | undefined {
  const parts: string[] = [];
  if (rules.skipped > 0) parts.push(`${rules.skipped} skipped (restricted, ignored by git or duplicate)`);
  if (rules.disabled.length > 0) parts.push(`off in settings: ${rules.disabled.map((s) => SOURCE_LABELS[s] ?? s).join(', ')}`);
  return parts.length ? parts.join(' · ') : undefined;
}

function formatTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}
