import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ensureCodeServerInstalled } from './install';
import { CODE_SERVER_ENTRY, NODE24, REPO_ROOT, extensionFolderName } from './paths';
import { FatalWaitError, waitUntil } from './wait';

export interface CodeServerOptions {
  /** A temp dir this run owns: user-data, extensions and the log go under it. */
  runDir: string;
  workspace: string;
  /** HOME for code-server, its extension host and the core that host spawns (XDG_CONFIG_HOME = HOME/.config). */
  home: string;
  /** Merged over the defaults into User/settings.json. */
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** VS Code as it is without this extension (a baseline for the benches): the extension is not installed. */
  withoutExtension?: boolean;
}

export interface CodeServer {
  url: string;
  port: number;
  /** code-server's own process: the extension host and the core are its descendants. */
  pid: number;
  userDataDir: string;
  /** VS Code's logs (extension host, output channels) live under here. */
  logsDir: string;
  logFile: string;
  /** code-server's stdout and stderr so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Settings for a quiet, deterministic workbench. */
export const BASE_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'window.commandCenter': false,
  'editor.accessibilitySupport': 'off',
  // The extension host scans every process of the machine for new listening ports and toasts each one it forwards:
  // on a shared machine other people's servers come and go, and those toasts are noise over the buttons tests click.
  'remote.autoForwardPorts': false,
};

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  ensureCodeServerInstalled();
  const userDataDir = join(opts.runDir, 'user-data');
  const extensionsDir = join(opts.runDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...opts.settings }, null, 2));
  if (!opts.withoutExtension) symlinkSync(REPO_ROOT, join(extensionsDir, extensionFolderName()), 'dir');

  const port = await freePort();
  const logFile = join(opts.runDir, 'code-server.log');
  const logFd = openSync(logFile, 'a');
  const args = [
    CODE_SERVER_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    opts.workspace,
  ];
  const child = spawn(NODE24, args, {
    cwd: opts.workspace,
    env: codeServerEnv(opts),
    stdio: ['ignore', logFd, logFd],
    detached: true, // its own process group, so stop() ends the extension host and the core with it
  });
  closeSync(logFd);
  liveGroups.add(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: CodeServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    userDataDir,
    logsDir: join(userDataDir, 'logs'),
    logFile,
    log: () => readFileSync(logFile, 'utf8'),
    stop: () => stopGroup(child, exited),
  };
  try {
    await waitUntil(() => healthy(server.url, child), { timeoutMs: 60_000, what: `code-server on port ${port} to answer /healthz` });
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- code-server log ---\n${server.log().slice(-4000)}`);
  }
  return server;
}

function codeServerEnv(opts: CodeServerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: opts.home,
    XDG_CONFIG_HOME: join(opts.home, '.config'),
    XDG_DATA_HOME: join(opts.home, '.local/share'),
    XDG_CACHE_HOME: join(opts.home, '.cache'),
    GIT_CONFIG_NOSYSTEM: '1',
    ...opts.env,
  };
  return env;
}

async function healthy(url: string, child: ChildProcess): Promise<boolean> {
  if (child.exitCode !== null) throw new FatalWaitError(`code-server exited with code ${child.exitCode}`);
  try {
    const res = await fetch(`${url}/healthz`);
    return res.ok;
  } catch {
    return false;
  }
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  signalGroup(child.pid!, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
  // Whatever of the group outlived its leader (a core, a watcher) goes too.
  signalGroup(child.pid!, 'SIGKILL');
  liveGroups.delete(child.pid!);
}

/**
 * code-server runs in its own process group (so stop() can end the extension host and the core with it), which also
 * means an interrupted test run would leave it behind: end the groups we started when this process goes.
 */
const liveGroups = new Set<number>();
const killLiveGroups = () => {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  liveGroups.clear();
};
process.once('exit', killLiveGroups);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killLiveGroups();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
