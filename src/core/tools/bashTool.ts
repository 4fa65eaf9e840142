/** bash: run a shell command in the workspace, bounded in time and output, sudo only with the user's approval. */
import { deniedCommandReason } from './bashDenylist';
import { failed, guarded, succeeded } from './outcome';
import { OUTPUT_CAP_BYTES, runShellCommand, type ShellResult } from '../platform/shellCommand';
import { scrubPassword, usesSudo, withSudoReadingStdin } from './sudo';
import { optionalCount, requiredString } from './toolArgs';
import { stringArgument } from './toolTargets';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

export const bashTool: ToolDefinition = {
  name: 'bash',
  kind: 'destructive',
  schema: {
    name: 'bash',
    description:
      'Run a bash command with the workspace as the working directory. stdout and stderr are combined and capped at ' +
      `${OUTPUT_CAP_BYTES / 1024} KiB (head and tail kept). stdin is empty, so nothing can prompt. The command is ` +
      'killed with everything it started when the timeout passes or the run is cancelled. Commands using sudo ' +
      "need the user's approval. Prefer the file tools for reading, searching and editing files.",
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: { type: 'integer', description: 'seconds before the command is killed (clamped to the configured maximum)' },
      },
      required: ['command'],
    },
  },
  targets: (args) => ({ paths: [], command: stringArgument(args, 'command') ?? '' }),
  execute: guarded('bash', (args, ctx) => runBash(args, ctx, { keepTrailingNewline: false })),
};

/**
 * The user's own command (`user_bash`): bash's run, its output as the command printed it, trailing newline included,
 * as upstream reports it in `bash_execution` (the model's bash drops that newline).
 */
export const runUserBash = guarded('bash', (args, ctx) => runBash(args, ctx, { keepTrailingNewline: true }));

interface OutputShape {
  keepTrailingNewline: boolean;
}

async function runBash(args: Record<string, unknown>, ctx: ToolContext, shape: OutputShape): Promise<ToolOutcome> {
  const command = requiredString(args, 'command');
  const timeoutSecs = effectiveTimeoutSecs(optionalCount(args, 'timeout'), ctx);
  const denied = deniedCommandReason(command);
  if (denied) {
    return failed(
      `bash: command blocked by the denylist (${denied}). This is a safety tripwire; if the user really wants ` +
        'this, ask them to run it themselves.',
    );
  }
  if (ctx.signal.aborted) return failed('bash: cancelled before the command started', 'cancelled');
  let runCommand = command;
  let password: string | undefined;
  let stdinText: string | undefined;
  if (usesSudo(command)) {
    const answer = await ctx.requestSudo(command);
    if (!answer.approved) return failed('bash: the user denied running this command with sudo', 'denied');
    if (ctx.signal.aborted) return failed('bash: cancelled before the command started', 'cancelled');
    runCommand = withSudoReadingStdin(command);
    password = answer.password;
    stdinText = password === undefined ? undefined : `${password}\n`;
  }
  const result = await runShellCommand({
    command: runCommand,
    shell: ctx.shell || 'bash',
    cwd: ctx.workspace,
    timeoutMs: timeoutSecs * 1000,
    signal: ctx.signal,
    stdinText,
  });
  return outcomeOf(result, timeoutSecs, ctx.shell || 'bash', password, shape);
}

/** The model's timeout clamped to [1, max]; the configured default otherwise. */
function effectiveTimeoutSecs(requested: number | undefined, ctx: ToolContext): number {
  const max = Math.max(ctx.maxBashTimeoutSecs, 1);
  if (requested === undefined) return Math.max(ctx.bashTimeoutSecs, 1);
  return Math.min(Math.max(requested, 1), max);
}

function outcomeOf(result: ShellResult, timeoutSecs: number, shell: string, password: string | undefined, shape: OutputShape): ToolOutcome {
  if (result.spawnError) return failed(`bash: could not start ${shell}: ${result.spawnError}`);
  const printed = scrubPassword(result.output, password);
  const text = (shape.keepTrailingNewline ? printed : printed.replace(/\n$/, '')) || '(no output)';
  if (result.stoppedBy === 'timeout') {
    return failed(`bash: timed out after ${timeoutSecs}s; the command and everything it started were killed.\n${text}`, 'timed_out');
  }
  if (result.stoppedBy === 'abort') {
    return failed(`bash: cancelled; the command and everything it started were killed.\n${text}`, 'cancelled');
  }
  if (result.exitCode === 0) return succeeded(text);
  const ending = result.exitCode !== null ? `exit code ${result.exitCode}` : `killed by ${result.exitSignal ?? 'a signal'}`;
  return failed(`${text}\n[${ending}]`);
}
