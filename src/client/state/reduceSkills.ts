import type { SkillInfo } from '../../protocol';
import type { SessionState, SkillView } from '../../shared/sessionState';
import { records, str, type Untrusted, type UntrustedEvent } from './eventFields';

/** A list longer than this is no list a picker or the completion popup can show. */
const MAX_SKILLS = 500;

/** `skills`: the skills the core can apply, replacing the previous list (the body is not kept: the core inlines it). */
export function reduceSkills(s: SessionState, e: UntrustedEvent<'skills'>): SessionState {
  const skills = records<SkillInfo>(e.skills)
    .map((skill) => skillView(skill, s.workspace))
    .filter((v): v is SkillView => v !== undefined)
    .slice(0, MAX_SKILLS);
  if (s.skills && JSON.stringify(s.skills) === JSON.stringify(skills)) return s;
  return { ...s, skills };
}

function skillView(skill: Untrusted<SkillInfo>, workspace: string | undefined): SkillView | undefined {
  const name = str(skill.name)?.trim();
  if (!name) return undefined;
  const location = (str(skill.location) ?? '').slice(0, 4000);
  return {
    name: name.slice(0, 200),
    description: (str(skill.description) ?? '').slice(0, 1000),
    location,
    scope: scopeOf(location, workspace),
  };
}

/** Neither core says which scope a skill is from; a SKILL.md inside the workspace is the project's. */
export function scopeOf(location: string, workspace: string | undefined): SkillView['scope'] {
  if (!workspace) return 'user';
  const root = workspace.replace(/[\\/]+$/, '');
  return location.startsWith(`${root}/`) || location.startsWith(`${root}\\`) ? 'project' : 'user';
}
