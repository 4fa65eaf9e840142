import type { SessionState } from '../../src/shared/sessionState';
import type { SlashCommandInfo } from '../../src/shared/webviewMessages';
import { supports, type UiCapability } from '../infra/capabilities';

/** The same shape the host accepts for `slash.name`. */
const SLASH_NAME = /^[a-z][a-z0-9-]{0,40}$/;

/**
 * The slash command a composer text invokes: `/name args` where `name` is one of the host's commands. Anything else
 * (an unknown name, a path like `/usr/bin/env`) is an ordinary prompt.
 */
export function parseSlashInput(text: string, commands: readonly SlashCommandInfo[]): { name: string; args: string } | undefined {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const name = match[1];
  if (!SLASH_NAME.test(name) || !commands.some((c) => c.name === name)) return undefined;
  return { name, args: (match[2] ?? '').trim() };
}

/** Commands matching what was typed after `/`: prefix matches first, then other substring matches, each in list order. */
export function matchSlashCommands(query: string, commands: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  const q = query.toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner];
}

/** Commands that only a core with the capability can carry out. */
const NEEDS: Readonly<Record<string, UiCapability>> = {
  sessions: 'sessions',
  undo: 'undo',
  steer: 'steer',
  skills: 'skills',
  skill: 'skills',
  goal: 'goal',
  plugin: 'plugins',
};

/**
 * The commands to offer in the completion popup: those the core can do. Typing a hidden one still goes to the host
 * (which says it is unsupported) rather than to the model as a prompt, so parsing keeps the full list.
 */
export function availableSlashCommands(commands: readonly SlashCommandInfo[], state: SessionState): SlashCommandInfo[] {
  return commands.filter((c) => {
    const needed = NEEDS[c.name];
    return needed === undefined || supports(state, needed);
  });
}
