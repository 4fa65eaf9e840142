import type { SlashCommandInfo } from '../../shared/webviewMessages';
import type { ApprovalMode } from '../../shared/sessionState';
import type { SessionIntents } from './sessionIntents';

/** The chat's slash commands (the composer completes them; `runSlashCommand` carries them out). */
export const SLASH_COMMANDS: readonly SlashCommandInfo[] = [
  { name: 'new', description: 'Start a new session' },
  { name: 'sessions', description: 'List the sessions of this workspace' },
  { name: 'undo', description: 'Undo the last turn and restore its files' },
  { name: 'compact', description: 'Summarize older turns to free context', args: '[instructions]' },
  { name: 'stats', description: 'Show token usage for this session' },
  { name: 'context', description: 'Show how full the context window is' },
  { name: 'usage', description: "Show the provider's plan and rate-limit windows" },
  { name: 'model', description: 'Switch the model', args: '<model id>' },
  { name: 'reasoning', description: 'Set the reasoning effort', args: '<low|medium|high>' },
  { name: 'approval', description: 'Set when to ask before a tool runs', args: '<never|destructive|always>' },
  { name: 'abort', description: 'Stop the running turn' },
  { name: 'clear', description: 'Clear the conversation (the session file is kept)' },
  { name: 'reset', description: 'Clear the conversation and wipe the session file' },
  { name: 'steer', description: 'Redirect the running turn', args: '<text>' },
  { name: 'memory', description: 'Save a note the agent remembers in this workspace (alone: list and forget notes)', args: '[text]' },
  { name: 'agents', description: 'List the agents subagents can run as' },
  { name: 'skills', description: 'List the skills of this workspace and your home' },
  { name: 'skill', description: 'Apply a skill (also /skill:<name>)', args: '<name> [task]' },
  { name: 'goal', description: 'Start a goal: a plan to review, then workers in waves (opens the Control Center)', args: '[goal]' },
  { name: 'plugin', description: "Run a plugin's slash command (plugins' own commands complete as /<name>)", args: '<command> [args]' },
  { name: 'vision', description: 'Vision settings: hand images to a vision model, or have it describe them' },
  { name: 'help', description: 'List the slash commands' },
];

/** What a slash command can do: the intents it maps to, and a notice for everything else. */
export type SlashTarget = Pick<
  SessionIntents,
  | 'newSession'
  | 'listSessions'
  | 'undo'
  | 'compact'
  | 'stats'
  | 'context'
  | 'setModel'
  | 'setReasoning'
  | 'setApprovalMode'
  | 'abort'
  | 'clear'
  | 'reset'
  | 'steer'
  | 'saveMemory'
  | 'listAgents'
  | 'listSkills'
  | 'applySkill'
  | 'startGoal'
  | 'goalAction'
  | 'pluginCommand'
> & {
  notify(level: 'info' | 'warning' | 'error', text: string): boolean;
};

/** Runs `/name args`; a missing argument or an unknown name becomes a notice. Returns whether a command was sent. */
export function runSlashCommand(target: SlashTarget, name: string, args: string): boolean {
  const arg = args.trim();
  const needs = (run: (a: string) => boolean): boolean => (arg ? run(arg) : target.notify('warning', `/${name} needs ${usageOf(name)}.`));
  switch (name) {
    case 'new':
      return target.newSession();
    case 'sessions':
      return target.listSessions();
    case 'undo':
      return target.undo();
    case 'compact':
      return target.compact(arg || undefined);
    case 'stats':
      return target.stats();
    case 'context':
      return target.context();
    case 'model':
      return needs((a) => target.setModel(a));
    case 'reasoning':
      return needs((a) => target.setReasoning(a));
    case 'approval':
      return needs((a) => target.setApprovalMode(a as ApprovalMode));
    case 'abort':
      return target.abort();
    case 'clear':
      return target.clear();
    case 'reset':
      return target.reset();
    case 'steer':
      return needs((a) => target.steer(a));
    case 'memory':
      return needs((a) => target.saveMemory(a));
    case 'agents':
      return target.listAgents();
    case 'skills':
      return target.listSkills();
    case 'skill':
      return needs((a) => {
        const [, skill, task] = /^(\S+)\s*([\s\S]*)$/.exec(a)!;
        return target.applySkill(skill, task);
      });
    // The plan waits for the user's review; `/goal` alone asks for the goal's state (the host opens the Control Center).
    case 'goal':
      return arg ? target.startGoal({ goal: arg, autoDeploy: false }) : target.goalAction('refresh');
    case 'plugin':
      return needs((a) => {
        const [, command, rest] = /^(\S+)\s*([\s\S]*)$/.exec(a)!;
        return target.pluginCommand(command, rest);
      });
    // The host opens its Vision Settings QuickPick instead; a host without one says where the settings are.
    case 'vision':
      return target.notify('info', 'Vision settings: run "Catalyst: Vision Settings…" from the Command Palette.');
    // The host runs Show Usage (it asks the core and opens the answer); a host without it says where it is.
    case 'usage':
      return target.notify('info', 'Usage: run "Catalyst: Show Usage" from the Command Palette.');
    case 'help':
      return target.notify('info', helpText());
    default:
      return target.notify('warning', `Unknown command /${name}. Type /help for the list.`);
  }
}

function usageOf(name: string): string {
  return SLASH_COMMANDS.find((c) => c.name === name)?.args ?? 'an argument';
}

function helpText(): string {
  return ['Slash commands:', ...SLASH_COMMANDS.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ''} — ${c.description}`)].join('\n');
}
