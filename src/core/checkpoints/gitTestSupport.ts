import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Isolates git from the machine's global and system config (identity, excludes, hooks). Test helper. */
export function isolateGitConfig(): () => void {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-gitcfg-'));
  const globalConfig = path.join(home, 'gitconfig');
  fs.writeFileSync(globalConfig, '');
  const saved = { GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
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
