/**
 * Running one command in its own process group: output interleaved and capped, a timeout and an abort signal that
 * kill the whole group (SIGTERM, then SIGKILL after a grace period). bash runs a shell command line; git and the
 * diagnostics checkers run a program with its arguments.
 */
import { spawn } from 'node:child_process';
import { CappedOutput } from './cappedOutput';
import { killProcessGroup } from './processGroup';

export const OUTPUT_CAP_BYTES = 32 * 1024;
const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for background children still holding its stdout/stderr. */
const PIPE_DRAIN_MS = 500;

interface CommandLimits {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  stdinText?: string;
}

export interface ShellCommand extends CommandLimits {
  command: string;
  shell: string;
}

export interface ProgramRun extends CommandLimits {
  program: string;
  args: string[];
  /** The environment (default: the core's own, with pagers and git's terminal prompt turned off). */
  env?: NodeJS.ProcessEnv;
}

export interface ShellResult {
  output: string;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  stoppedBy?: 'timeout' | 'abort';
  spawnError?: string;
}

export function runShellCommand(run: ShellCommand): Promise<ShellResult> {
  return runProgram({ ...run, program: run.shell, args: ['-c', run.command] });
}

/** The environment commands run with: nothing may page or prompt, since nobody is at a terminal. */
export function nonInteractiveEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
}

export function runProgram(run: ProgramRun): Promise<ShellResult> {
  return new Promise((resolve) => {
    const output = new CappedOutput(OUTPUT_CAP_BYTES);
    const child = spawn(run.program, run.args, {
      cwd: run.cwd,
      detached: true,
      stdio: [run.stdinText === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: run.env ?? nonInteractiveEnv(),
    });
    let stoppedBy: ShellResult['stoppedBy'];
    let settled = false;

    const stop = (reason: 'timeout' | 'abort') => {
      if (stoppedBy || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      stoppedBy = reason;
      void killProcessGroup(child.pid, KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    const onAbort = () => stop('abort');
    run.signal.addEventListener('abort', onAbort, { once: true });

    const settle = (result: Omit<ShellResult, 'output' | 'stoppedBy'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      // A group kill in progress goes on (SIGKILL after the grace period) without holding up the result.
      resolve({ ...result, output: output.text(), stoppedBy });
    };

    child.stdout?.on('data', (chunk: Buffer) => output.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.append(chunk));
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // the command may exit without reading its stdin
      child.stdin.end(run.stdinText);
    }
    child.on('error', (error) => settle({ exitCode: null, exitSignal: null, spawnError: error.message }));
    child.on('close', (exitCode, exitSignal) => settle({ exitCode, exitSignal }));
    child.on('exit', (exitCode, exitSignal) => {
      setTimeout(() => settle({ exitCode, exitSignal }), PIPE_DRAIN_MS);
    });
  });
}
