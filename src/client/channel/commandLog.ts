import type { Command, CommandType } from '../../protocol';

/** Commands that can carry a key or a password: only their type is ever logged. */
export const SECRET_COMMANDS: ReadonlySet<CommandType> = new Set<CommandType>([
  'set_key',
  'set_search_key',
  'login',
  'oauth_code',
  'add_custom_provider',
  'discover_provider_models',
  'sudo_reply',
]);

const PREVIEW_CHARS = 300;

/** One log line for a command sent to the core; payloads of secret-bearing commands are never included. */
export function describeCommand(cmd: Command): string {
  if (SECRET_COMMANDS.has(cmd.type)) return `→ ${cmd.type}`;
  const json = JSON.stringify(cmd);
  return `→ ${json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}… (${json.length} chars)` : json}`;
}
