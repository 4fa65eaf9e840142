import type { SessionState } from '../../src/shared/sessionState';
import type { SlashCommandInfo } from '../../src/shared/webviewMessages';

/** `/skill:<name> [task]`, upstream's way to apply a skill; the name is one token. */
const SKILL_INPUT = /^\/skill:(\S+)(?:\s+([\s\S]*))?$/;

/** The skill section of the slash completion: `skill:<name>` for each skill the core listed, with its scope. */
export function skillCommands(state: Pick<SessionState, 'skills'>): SlashCommandInfo[] {
  return (state.skills ?? [])
    .filter((s) => !/\s/.test(s.name))
    .map((s) => ({ name: `skill:${s.name}`, description: `${s.description || 'Apply this skill'} (${s.scope})`, args: '[task]' }));
}

/** `/skill:<name> task` as the host's `skill` command (`args` = "<name> task"), when the host has one. */
export function parseSkillInput(text: string, commands: readonly SlashCommandInfo[]): { name: string; args: string } | undefined {
  const match = SKILL_INPUT.exec(text.trim());
  if (!match || !commands.some((c) => c.name === 'skill')) return undefined;
  return { name: 'skill', args: `${match[1]} ${(match[2] ?? '').trim()}`.trim() };
}
