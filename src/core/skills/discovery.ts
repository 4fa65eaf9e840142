/**
 * Skills: `<ws>/.catalyst-code/skills/*\/SKILL.md` (project) then `~/.catalyst-code/skills/*\/SKILL.md` (user), exactly
 * one level deep, with the agents' flat frontmatter (research A:571-583).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseFrontmatter } from '../platform/frontmatter';

export type SkillScope = 'project' | 'user';

export interface Skill {
  /** The frontmatter `name`, else the folder's name: what `apply_skill` matches (case-insensitively). */
  name: string;
  description: string;
  /** The absolute path of SKILL.md. */
  location: string;
  /** SKILL.md without its frontmatter. */
  body: string;
  /** The folder's name: the identifier the model is shown and `/skill:` uses. */
  folder: string;
  scope: SkillScope;
}

export interface SkillDirs {
  /** <ws>/.catalyst-code/skills */
  project: string;
  /** ~/.catalyst-code/skills */
  user: string;
}

export function skillDirs(homeDir: string, workspace: string): SkillDirs {
  return { project: join(workspace, '.catalyst-code', 'skills'), user: join(homeDir, '.catalyst-code', 'skills') };
}

/** A SKILL.md is instructions for a prompt: anything larger is not one. */
const MAX_SKILL_FILE_BYTES = 256 * 1024;

/**
 * Every skill that is not `deprecated: true`, project scope first, folders in name order (upstream's order within a
 * directory is unspecified). Not deduplicated: the manifest and a subagent's skills block read this list as upstream does.
 */
export function discoverSkills(dirs: SkillDirs): Skill[] {
  const skills: Skill[] = [];
  for (const [dir, scope] of [
    [dirs.project, 'project'],
    [dirs.user, 'user'],
  ] as const) {
    for (const folder of folderNames(dir)) {
      const location = join(dir, folder, 'SKILL.md');
      const content = readSmallFile(location);
      const skill = content === undefined ? undefined : parseSkill(content, location, scope);
      if (skill) skills.push(skill);
    }
  }
  return skills;
}

/** One skill per lowercased name, the first (so the project's) winning: the `skills` event and `apply_skill`. */
export function uniqueSkills(skills: readonly Skill[]): Skill[] {
  const seen = new Set<string>();
  return skills.filter((skill) => {
    const key = skill.name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  const wanted = name.toLowerCase();
  return uniqueSkills(skills).find((skill) => skill.name.toLowerCase() === wanted);
}

export function parseSkill(content: string, location: string, scope: SkillScope): Skill | undefined {
  const { fields, body } = parseFrontmatter(content);
  if (fields.get('deprecated')?.toLowerCase() === 'true') return undefined;
  const folder = basename(dirname(location));
  return { name: fields.get('name') || folder, description: fields.get('description') ?? '', location, body, folder, scope };
}

function folderNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Missing, unreadable, oversized and non-file entries are skipped silently, as upstream skips unreadable ones. */
function readSmallFile(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_SKILL_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
