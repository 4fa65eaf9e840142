import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Isolates git from the machine's global and system config (identity, excludes, hooks). Test helper. */
export function isolateGitConfig(): () => void {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-gitcfg-'));
  const globalConfig = path.join(home, 'gitconfig');
  fs.writeFileSync(globalConfig, '');
  const saved = {
    GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL,
    GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM,
    XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME,
  };
  process.env.GIT_CONFIG_GLOBAL = globalConfig;
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.XDG_CONFIG_HOME = home;
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fs.rmSync(home, { recursive: true, force: true });
  };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test User');
  git(dir, 'config', 'user.email', 'test@example.com');
}

/** Writes files (creating directories); a null content deletes the file. */
export function writeTree(root: string, files: Record<string, string | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    if (content === null) {
      fs.rmSync(p, { force: true });
      continue;
    }
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

export function read(root: string, rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

export function exists(root: string, rel: string): boolean {
  return fs.existsSync(path.join(root, rel));
}

/**
 * A `git` to put first on PATH that holds one subcommand (`gc`, `update-index`) until released — before it runs, or
 * with `afterRun` once it has run — every other command running straight through to the real git. It logs what
 * becomes of each held command: `paused <pid> <args>`, `stopped <pid>` (it got SIGTERM), `finished <pid> <exit code>`.
 * Test helper (POSIX: sh and mkfifo).
 */
export interface GitGate {
  /** The directory to put first on PATH. */
  binDir: string;
  lines(): string[];
  /** The first log line from line `from` on matching `pattern`, as soon as it is written (the log's directory is watched). */
  waitFor(pattern: RegExp, opts?: { from?: number; timeoutMs?: number }): Promise<string>;
  /** Lets the held commands run. Only call it while one is held: it waits for one to read the release pipe. */
  release(): Promise<void>;
  /** Ends held commands still waiting (a core killed without them, a failed test) and removes the gate. */
  dispose(): void;
}

/** The pid of a gate log line. */
export function gatePid(line: string): string {
  return line.split(' ')[1];
}

export function gitGate(subcommand: string, opts: { afterRun?: boolean } = {}): GitGate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-gitgate-'));
  const binDir = path.join(dir, 'bin');
  const log = path.join(dir, 'log');
  const releasePipe = path.join(dir, 'release');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.mkdirSync(binDir);
  execFileSync('mkfifo', [releasePipe]);
  const script = `#!/bin/sh
sub=''
skip=0
for a in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$a" in
    -c|-C) skip=1 ;;
    -*) ;;
    *) sub="$a"; break ;;
  esac
done
[ "$sub" = '${subcommand}' ] || exec '${realGit}' "$@"
held=''
trap 'kill $held 2>/dev/null; echo "stopped $$" >> '"'${log}'"'; exit 143' TERM
${
  opts.afterRun
    ? `'${realGit}' "$@"
rc=$?
`
    : ''
}echo "paused $$ $*" >> '${log}'
cat '${releasePipe}' > /dev/null &
held=$!
wait $held
${
  opts.afterRun
    ? ''
    : `'${realGit}' "$@"
rc=$?
`
}echo "finished $$ $rc" >> '${log}'
exit $rc
`;
  fs.writeFileSync(path.join(binDir, 'git'), script, { mode: 0o755 });
  const lines = (): string[] => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return {
    binDir,
    lines,
    waitFor(pattern, { from = 0, timeoutMs = 30_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = lines()
            .slice(from)
            .find((l) => pattern.test(l));
          if (hit === undefined) return;
          done();
          resolve(hit);
        };
        const watcher = fs.watch(dir, check);
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no git gate line matching ${pattern} within ${timeoutMs} ms; log: ${JSON.stringify(lines())}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          watcher.close();
        };
        check();
      });
    },
    release: () => fs.promises.writeFile(releasePipe, ''),
    dispose() {
      const ended = new Set(lines().flatMap((l) => /^(stopped|finished) (\d+)/.exec(l)?.[2] ?? []));
      for (const l of lines()) {
        const pid = /^paused (\d+)/.exec(l)?.[1];
        if (pid && !ended.has(pid)) {
          try {
            process.kill(Number(pid), 'SIGTERM');
          } catch {
            // already gone
          }
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
