/**
 * Which checker the diagnostics tool runs for a directory, from the project files there (first match wins):
 * Cargo.toml → cargo check, tsconfig.json → tsc --noEmit (the project's own tsc, else npx without installing),
 * go.mod → go build ./..., Python files → python3 compiling each (without writing .pyc files into the project).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { GitignoreRules } from './gitignoreRules';
import { walkFiles } from './workspaceWalk';

export interface Checker {
  /** What the output is headed with, e.g. "cargo check". */
  label: string;
  program: string;
  args: string[];
}

const MAX_PYTHON_FILES = 50;
const SKIPPED_PYTHON_DIRS = ['.venv', 'venv', '__pycache__'];

/** Compiles each file named on the command line; prints `file:line: error` for each failure and exits 1 if any. */
const PYTHON_COMPILE_ALL = [
  'import sys',
  'bad = 0',
  'for f in sys.argv[1:]:',
  '    try:',
  '        compile(open(f, "rb").read(), f, "exec")',
  '    except (SyntaxError, ValueError) as e:',
  '        bad += 1',
  "        print(f\"{f}:{getattr(e, 'lineno', 0) or 0}: {type(e).__name__}: {getattr(e, 'msg', e)}\")",
  'sys.exit(1 if bad else 0)',
].join('\n');

export async function pickChecker(workspace: string, dir: string, signal: AbortSignal): Promise<Checker | undefined> {
  if (await exists(dir, 'Cargo.toml')) return { label: 'cargo check', program: 'cargo', args: ['check', '--message-format=short'] };
  if (await exists(dir, 'tsconfig.json')) return typescriptChecker(workspace, dir);
  if (await exists(dir, 'go.mod')) return { label: 'go build', program: 'go', args: ['build', './...'] };
  const pythonFiles = await findPythonFiles(workspace, dir, signal);
  if (pythonFiles.length > 0) return { label: 'py_compile', program: 'python3', args: ['-c', PYTHON_COMPILE_ALL, ...pythonFiles] };
  return undefined;
}

/** The project's tsc in node_modules/.bin, from the directory up to the workspace root, before npx's. */
async function typescriptChecker(workspace: string, dir: string): Promise<Checker> {
  for (let at = dir; ; at = path.dirname(at)) {
    const local = path.join(at, 'node_modules', '.bin', 'tsc');
    if (await exists(local)) return { label: 'tsc --noEmit', program: local, args: ['--noEmit'] };
    if (at === workspace || path.dirname(at) === at) break;
  }
  return { label: 'tsc --noEmit', program: 'npx', args: ['--no-install', 'tsc', '--noEmit'] };
}

/** Up to 50 .py files under `dir` (not ignored, not in a virtualenv), relative to it. */
async function findPythonFiles(workspace: string, dir: string, signal: AbortSignal): Promise<string[]> {
  const found: string[] = [];
  for await (const abs of walkFiles(workspace, dir, new GitignoreRules(workspace), signal)) {
    const rel = path.relative(dir, abs);
    if (!rel.endsWith('.py') || rel.split(path.sep).some((part) => SKIPPED_PYTHON_DIRS.includes(part))) continue;
    found.push(rel);
    if (found.length === MAX_PYTHON_FILES) break;
  }
  return found;
}

async function exists(...parts: string[]): Promise<boolean> {
  return fs.stat(path.join(...parts)).then(
    () => true,
    () => false,
  );
}
