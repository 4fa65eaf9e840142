import type { CommandOf } from '../../protocol';
import type { SkillView } from '../../shared/sessionState';

/** The marketplace commands a client sends (each answered by a `skill_marketplace_*` event). */
export type SkillMarketplaceCommand =
  | CommandOf<'list_marketplace_skills'>
  | CommandOf<'accept_skill_disclaimer'>
  | CommandOf<'search_marketplace_skills'>
  | CommandOf<'install_marketplace_skill'>
  | CommandOf<'update_marketplace_skill'>
  | CommandOf<'remove_marketplace_skill'>;

const MARKETPLACE_TYPES: ReadonlySet<string> = new Set([
  'list_marketplace_skills',
  'accept_skill_disclaimer',
  'search_marketplace_skills',
  'install_marketplace_skill',
  'update_marketplace_skill',
  'remove_marketplace_skill',
]);

export function isMarketplaceCommand(cmd: unknown): cmd is SkillMarketplaceCommand {
  return typeof cmd === 'object' && cmd !== null && MARKETPLACE_TYPES.has(String((cmd as { type?: unknown }).type));
}

/** What the transcript shows for an apply_skill turn until the core's history replaces it (upstream's clients do the same). */
export function shownSkillPrompt(name: string, task: string): string {
  return task ? `/skill:${name} ${task}` : `/skill:${name}`;
}

/** The `/skills` notice: one line per skill with its scope and description. */
export function skillsReport(skills: readonly SkillView[]): string {
  if (skills.length === 0)
    return 'No skills: add one as .catalyst-code/skills/<name>/SKILL.md (project) or ~/.catalyst-code/skills/<name>/SKILL.md.';
  return ['Skills:', ...skills.map((s) => `${s.name} (${s.scope})${s.description ? ` — ${s.description}` : ''}`)].join('\n');
}
