/** `list_skills`, `apply_skill`, and the `skills` event init sends too (research A:584-618). */
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../coreRuntime';
import type { SessionEventOf } from '../runtime/eventSink';
import { findSkill, uniqueSkills } from '../skills/discovery';
import { applySkillPrompt } from '../skills/skillPrompts';
import { startOrQueue } from './turnCommands';

export function handleListSkills(rt: CoreRuntime): void {
  rt.emit(skillsEvent(rt));
}

/** Read from disk each time: the user (or the model, or the marketplace) may add a skill while the core runs. */
export function skillsEvent(rt: CoreRuntime): SessionEventOf<'skills'> {
  return {
    type: 'skills',
    skills: uniqueSkills(rt.skills()).map((s) => ({
      name: s.name,
      description: s.description,
      location: s.location,
      content: s.body,
    })),
  };
}

/** A normal turn (queued like `send`) whose prompt carries the whole skill; an unknown model or skill ends with `done`. */
export function handleApplySkill(rt: CoreRuntime, cmd: CommandOf<'apply_skill'>): void {
  if (typeof cmd.model !== 'string' || !cmd.model) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'model is required' });
    return;
  }
  const known = rt.providers.models();
  if (known.length > 0 && !known.some((m) => m.id === cmd.model)) return rejectTurn(rt, 'unknown_model', `unknown model: ${cmd.model}`);
  const name = typeof cmd.name === 'string' ? cmd.name.trim() : '';
  const skill = name ? findSkill(rt.skills(), name) : undefined;
  if (!skill) {
    return rejectTurn(rt, 'unknown_skill', `unknown skill '${name}' — use /skill:<name> with a name from the autocomplete`);
  }
  startOrQueue(rt, {
    prompt: applySkillPrompt(skill, typeof cmd.task === 'string' ? cmd.task : undefined),
    model: cmd.model,
    reasoning_effort: typeof cmd.reasoning_effort === 'string' && cmd.reasoning_effort ? cmd.reasoning_effort : 'medium',
  });
}

function rejectTurn(rt: CoreRuntime, code: string, message: string): void {
  rt.emit({ type: 'error', code, message });
  rt.emit({ type: 'done' });
}
