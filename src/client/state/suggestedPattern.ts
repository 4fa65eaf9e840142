import { record, str } from './eventFields';

const SUBCOMMAND = /^[A-Za-z][\w:-]*$/;
const MAX_PREFIX_WORDS = 2;

/**
 * An allow_pattern to offer for an approval: the command's leading words plus ` *` for bash (`npm test *`), the
 * parent directory plus `/**` for file tools (`src/lib/**`). It always covers the request under the core's scope check
 * (a literal prefix the target starts with, never a bare `*`); when no wider pattern would, it is the target itself.
 */
export function suggestPattern(tool: string, argsJson: string): string | undefined {
  const args = parseArgs(argsJson);
  if (!args) return undefined;
  const command = str(args.command);
  if (tool === 'bash' || (command !== undefined && str(args.path) === undefined)) return command ? commandPattern(command) : undefined;
  const path = str(args.path);
  return path ? pathPattern(path) : undefined;
}

export function commandPattern(command: string): string | undefined {
  const words = command.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  if (words.length === 1) return words[0];
  let prefixWords = 1;
  // Keep subcommand-like words (`npm test`, `git status`) but always leave at least one word for the `*` to match.
  while (prefixWords < MAX_PREFIX_WORDS && prefixWords < words.length - 1 && SUBCOMMAND.test(words[prefixWords])) prefixWords++;
  return `${words.slice(0, prefixWords).join(' ')} *`;
}

export function pathPattern(path: string): string | undefined {
  const normalized = path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (!normalized || normalized.includes('..') || /^([/~]|[A-Za-z]:)/.test(normalized)) return undefined;
  const slash = normalized.lastIndexOf('/');
  if (slash <= 0) return normalized;
  return `${normalized.slice(0, slash)}/**`;
}

function parseArgs(json: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(json));
  } catch {
    return undefined;
  }
}
