/**
 * A tripwire for the most catastrophic commands (upstream's bash denylist). Not a security boundary: a determined
 * model can get around it; it catches the obvious accidents.
 */

const DENIED_PATTERNS: ReadonlyArray<{ label: string; pattern: RegExp }> = [
  { label: 'dd of=/dev/sd*', pattern: /(^|[\s;&|(`])dd\s[^;&|]*\bof=\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk)/ },
  { label: 'fork bomb', pattern: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:?\s*&\s*\}\s*;?\s*:/ },
  { label: 'write to a raw disk', pattern: />\s*\/dev\/(sd|hd|vd|xvd|nvme|mmcblk)[a-z0-9]*/ },
];

/** Targets of a recursive rm that wipe the machine or the home directory. */
const CATASTROPHIC_RM_TARGETS = new Set(['/', '/*', '~', '~/', '~/*', '$HOME', '${HOME}', '"$HOME"', '"${HOME}"', '$HOME/', '$HOME/*']);

/** The denylist entry `command` trips, or undefined. */
export function deniedCommandReason(command: string): string | undefined {
  const normalized = command.replace(/\s+/g, ' ');
  for (const { label, pattern } of DENIED_PATTERNS) if (pattern.test(normalized)) return label;
  const commands = simpleCommands(normalized);
  if (commands.some(isMkfs)) return 'mkfs';
  return commands.some(isCatastrophicRm) ? 'rm -rf / or ~' : undefined;
}

function simpleCommands(command: string): string[][] {
  return command
    .split(/[;&|\n()`]+/)
    .map((part) =>
      part
        .trim()
        .split(' ')
        .filter((word) => word !== ''),
    )
    .filter((words) => words.length > 0);
}

/** The program a simple command runs, past a leading sudo. */
function programIndex(words: string[]): number {
  return words[0] === 'sudo' ? 1 : 0;
}

function isMkfs(words: string[]): boolean {
  return /^(\S*\/)?mkfs(\.\w+)?$/.test(words[programIndex(words)] ?? '');
}

function isCatastrophicRm(words: string[]): boolean {
  const start = programIndex(words);
  if (!/^(\S*\/)?rm$/.test(words[start] ?? '')) return false;
  const options = words.slice(start + 1).filter((word) => word.startsWith('-'));
  const recursive = options.some((option) => option === '--recursive' || (/^-[a-zA-Z]+$/.test(option) && /[rR]/.test(option)));
  const targets = words.slice(start + 1).filter((word) => !word.startsWith('-'));
  return recursive && targets.some((target) => CATASTROPHIC_RM_TARGETS.has(target));
}
