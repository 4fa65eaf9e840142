/** What the model is told about skills: the main prompt's manifest, apply_skill's prompt, a subagent's skills block (research A:591-618). */
import type { Skill } from './discovery';

export const MANIFEST_MAX_ENTRIES = 12;
export const MANIFEST_DESCRIPTION_CHARS = 80;
/** Always described to the orchestrator elsewhere upstream, so its manifest leaves it out. */
const ORCHESTRATOR_SKILL = 'pi-subagents';

/** The main agent's list of skills, by folder name (what `/skill:` and the SKILL.md path use); empty without skills. */
export function skillManifest(skills: readonly Skill[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  let omitted = 0;
  for (const skill of skills) {
    if (skill.name === ORCHESTRATOR_SKILL) continue;
    const id = skill.folder.trim() || skill.name.trim();
    if (!id || seen.has(id)) continue;
    seen.add(id);
    if (lines.length >= MANIFEST_MAX_ENTRIES) {
      omitted++;
      continue;
    }
    lines.push(manifestLine(id, skill.description.trim()));
  }
  if (!lines.length) return '';
  const head =
    'Available opt-in skills — apply with `/skill:<name>` (or read the matching .catalyst-code/skills/<name>/SKILL.md when it is in the workspace):';
  const more = omitted > 0 ? [`- …and ${omitted} more (list_dir .catalyst-code/skills/ or /skill:<name>)`] : [];
  return [head, ...lines, ...more].join('\n');
}

function manifestLine(id: string, description: string): string {
  if (!description) return `- ${id}`;
  const chars = [...description];
  return chars.length > MANIFEST_DESCRIPTION_CHARS
    ? `- ${id}: ${chars.slice(0, MANIFEST_DESCRIPTION_CHARS).join('')}…`
    : `- ${id}: ${description}`;
}

/** The user message of an `apply_skill` turn: the instruction, the whole skill inline, then the task if one was given. */
export function applySkillPrompt(skill: Pick<Skill, 'name' | 'body'>, task: string | undefined): string {
  const parts = [
    `Apply the skill "${skill.name}": follow the procedure in the skill file below.`,
    `<skill name="${skill.name}">\n${skill.body}\n</skill>`,
  ];
  if (task?.trim()) parts.push(`Task: ${task.trim()}`);
  return parts.join('\n\n');
}

/**
 * The block a subagent's `skills:` frontmatter adds to its system prompt: the named skills (exact frontmatter name, the
 * first found), where the child can read them; undefined when none of the names is a skill.
 */
export function subagentSkillsBlock(skills: readonly Skill[], names: readonly string[]): string | undefined {
  const blocks: string[] = [];
  for (const name of names) {
    if (name === 'false') continue;
    const skill = skills.find((s) => s.name === name);
    if (!skill) continue;
    blocks.push(
      `  <skill>\n    <name>${skill.name}</name>\n    <description>${skill.description}</description>\n    <location>${skill.location}</location>\n  </skill>`,
    );
  }
  if (!blocks.length) return undefined;
  return [
    'The following skills are available to this subagent. Use read_file to load a skill file when the task matches its description.',
    '<available_skills>',
    ...blocks,
    '</available_skills>',
  ].join('\n');
}
