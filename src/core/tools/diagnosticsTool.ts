/** diagnostics: runs the project's type checker or compiler and returns what it reports; cancellable and time-bounded. */
import fs from 'node:fs/promises';
import { pickChecker } from './diagnosticsChecker';
import { failed, guarded, succeeded, ToolInputError } from './outcome';
import { runProgram, type ShellResult } from '../platform/shellCommand';
import { optionalString } from './toolArgs';
import { pathArguments } from './toolTargets';
import type { ToolDefinition, ToolOutcome } from './types';
import { resolveWorkspacePath } from '../platform/workspace';

/** Upstream's floor under --diag-timeout. */
const MIN_TIMEOUT_SECS = 5;
/** The only variables a checker inherits (as upstream): no LD_PRELOAD, proxies or the core's own secrets. */
const INHERITED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'GOPATH',
  'GOCACHE',
  'GOTMPDIR',
  'NODE_PATH',
  'npm_config_cache',
];

export const diagnosticsTool: ToolDefinition = {
  name: 'diagnostics',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'diagnostics',
    description:
      "Run the project's type checker / compiler (cargo check, tsc --noEmit, go build, or a Python compile of the " +
      '*.py files) and return diagnostics. Use after edits to catch type/syntax errors before declaring done.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'subdirectory to check (defaults to workspace root)' } },
    },
  },
  targets: pathArguments('path'),
  execute: guarded('diagnostics', async (args, ctx) => {
    const requested = optionalString(args, 'path') || '.';
    const dir = resolveWorkspacePath(ctx.workspace, requested);
    if (!(await fs.stat(dir)).isDirectory()) throw new ToolInputError(`${requested} is not a directory`);
    const checker = await pickChecker(ctx.workspace, dir, ctx.signal);
    if (!checker) {
      return failed(
        `diagnostics: no checker applies to ${requested} (no Cargo.toml, tsconfig.json or go.mod there, and no *.py files under it)`,
      );
    }
    const timeoutSecs = Math.max(ctx.diagTimeoutSecs, MIN_TIMEOUT_SECS);
    const result = await runProgram({
      program: checker.program,
      args: checker.args,
      cwd: dir,
      env: checkerEnv(),
      timeoutMs: timeoutSecs * 1000,
      signal: ctx.signal,
    });
    return outcomeOf(checker.label, result, timeoutSecs);
  }),
};

function outcomeOf(label: string, result: ShellResult, timeoutSecs: number): ToolOutcome {
  if (result.spawnError) return failed(`${label} failed to run: ${result.spawnError}`);
  if (result.stoppedBy === 'timeout') return failed(`${label} timed out after ${timeoutSecs}s (killed)`, 'timed_out');
  if (result.stoppedBy === 'abort') return failed('diagnostics aborted', 'cancelled');
  const report = `${label}\n${result.output.replace(/\n$/, '') || '(no diagnostics — clean)'}`;
  return result.exitCode === 0 ? succeeded(report) : failed(report);
}

function checkerEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(INHERITED_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
}
