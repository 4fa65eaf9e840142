import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { CoreKind } from '../../shared/sessionState';

export interface CoreLaunchOptions {
  kind: CoreKind;
  /** `catalystCode.core.path`; empty or undefined when unset. */
  configuredPath?: string;
  /** The environment the core inherits (normally the extension host's `process.env`). */
  env: NodeJS.ProcessEnv;
  /** `dist/core.js` inside the extension. */
  embeddedCorePath: string;
  /** The runtime that runs the embedded core: `process.execPath` (VS Code's Electron binary in the extension host). */
  nodePath: string;
  workspace: string;
  approval?: string;
  sessionFile?: string;
  bashTimeoutSecs?: number;
  extraArgs: string[];
  extraEnv: Record<string, string>;
  /** SCV only: `--approval-policy` (`catalystCode.scv.approvalPolicy`); SCV's own default (on-risk) when unset. */
  scvApprovalPolicy?: ScvApprovalPolicy;
}

export type ScvApprovalPolicy = 'on-risk' | 'always' | 'never';

export interface CoreLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  kind: CoreKind;
}

export type CoreLaunchResult = CoreLaunch | { error: string };

export const CORE_BINARY_NAME = 'catcode-core';
export const NO_CORE_FOUND = 'no catcode-core found: set catalystCode.core.path or $CATCODE_CORE';
export const SCV_SERVER_BINARY_NAME = 'scv-server';
/** The main `scv` binary serves stdio through its `server` subcommand. */
export const SCV_BINARY_NAME = 'scv';
export const NO_SCV_FOUND =
  'no SCV server found: set catalystCode.core.path (or $SCV_SERVER) to scv-server or scv, or put one of them on PATH';

/** How to start the core of the given kind: the command, its flags (upstream's CLI, research §3.2) and its environment. */
export function resolveCoreLaunch(o: CoreLaunchOptions): CoreLaunchResult {
  switch (o.kind) {
    case 'embedded':
      return embeddedLaunch(o);
    case 'catalyst':
      return catalystLaunch(o);
    case 'scv':
      return scvLaunch(o);
    default:
      return { error: `unknown core kind: ${String(o.kind)}` };
  }
}

function embeddedLaunch(o: CoreLaunchOptions): CoreLaunchResult {
  if (!isFile(o.embeddedCorePath)) return { error: `the embedded core is missing at ${o.embeddedCorePath}; reinstall the extension` };
  return {
    kind: 'embedded',
    command: o.nodePath,
    args: [o.embeddedCorePath, ...coreFlags(o)],
    // The extension host's process.execPath is Electron; this makes it behave as plain Node.
    env: { ...launchEnv(o, true), ELECTRON_RUN_AS_NODE: '1' },
  };
}

function catalystLaunch(o: CoreLaunchOptions): CoreLaunchResult {
  const binary = findCatalystBinary(o);
  if ('error' in binary) return binary;
  return { kind: 'catalyst', command: binary.path, args: coreFlags(o), env: launchEnv(o, true) };
}

/** The setting, else `$CATCODE_CORE` (authoritative, as in upstream's TUI), else `catcode-core` on PATH. */
function findCatalystBinary(o: CoreLaunchOptions): { path: string } | { error: string } {
  return findBinary(o, 'CATCODE_CORE', [CORE_BINARY_NAME], NO_CORE_FOUND);
}

/** The setting, else `$<envVar>`, else the first of `names` on PATH. A set but unusable path is an error, not skipped. */
function findBinary(
  o: CoreLaunchOptions,
  envVar: string,
  names: readonly string[],
  notFound: string,
): { path: string } | { error: string } {
  const configured = o.configuredPath?.trim();
  if (configured) {
    const abs = expandHome(configured, o.env, o.workspace);
    return isExecutableFile(abs) ? { path: abs } : { error: `catalystCode.core.path is ${abs}, which is not an executable file` };
  }
  const fromEnv = o.env[envVar]?.trim();
  if (fromEnv) {
    const abs = expandHome(fromEnv, o.env, o.workspace);
    return isExecutableFile(abs) ? { path: abs } : { error: `$${envVar} is ${abs}, which is not an executable file` };
  }
  for (const name of names) {
    const onPath = findOnPath(name, o.env);
    if (onPath) return { path: onPath };
  }
  return { error: notFound };
}

/**
 * SCV's own flags only (Catalyst's --workspace/--session/--approval/--bash-timeout mean nothing to it; the workspace goes
 * in session.start). The `scv` binary takes them as global flags before its `server` subcommand.
 */
function scvLaunch(o: CoreLaunchOptions): CoreLaunchResult {
  const binary = findScvBinary(o);
  if ('error' in binary) return binary;
  const flags = o.scvApprovalPolicy ? ['--approval-policy', o.scvApprovalPolicy, ...o.extraArgs] : [...o.extraArgs];
  const args = isScvMainBinary(binary.path) ? [...flags, 'server'] : flags;
  return { kind: 'scv', command: binary.path, args, env: launchEnv(o) };
}

/** The setting, else `$SCV_SERVER`, else `scv-server` on PATH, else `scv` on PATH. */
function findScvBinary(o: CoreLaunchOptions): { path: string } | { error: string } {
  return findBinary(o, 'SCV_SERVER', [SCV_SERVER_BINARY_NAME, SCV_BINARY_NAME], NO_SCV_FOUND);
}

function isScvMainBinary(p: string): boolean {
  return path.basename(p).replace(/\.exe$/i, '') === SCV_BINARY_NAME;
}

function coreFlags(o: CoreLaunchOptions): string[] {
  const flags = ['--workspace', o.workspace];
  if (o.approval) flags.push('--approval', o.approval);
  if (o.sessionFile) flags.push('--session', o.sessionFile);
  if (o.bashTimeoutSecs !== undefined && Number.isFinite(o.bashTimeoutSecs) && o.bashTimeoutSecs > 0) {
    flags.push('--bash-timeout', String(Math.round(o.bashTimeoutSecs)));
  }
  return [...flags, ...o.extraArgs];
}

/**
 * `noBrowser` (Catalyst Code cores): the extension opens OAuth URLs itself (src/vscode/oauthLoginFlow.ts, with
 * openExternal, which also works in a remote window), so the core must not start a browser on the extension host;
 * upstream's web host sets the same variable. `catalystCode.core.extraEnv` can still override it.
 */
function launchEnv(o: CoreLaunchOptions, noBrowser = false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(o.env)) if (typeof value === 'string') env[key] = value;
  return { ...env, ...(noBrowser ? { CATALYST_CODE_NO_BROWSER: '1' } : {}), ...o.extraEnv };
}

/** Searches PATH ourselves (PATHEXT on Windows) so a missing binary is a clear message, not a spawn ENOENT. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const pathValue = env.PATH ?? env.Path ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  const extensions = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((e) => e.toLowerCase())] : [''];
  for (const dir of pathValue.split(delimiter)) {
    if (!dir) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, name + ext);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

function expandHome(p: string, env: NodeJS.ProcessEnv, workspace: string): string {
  const home = env.HOME ?? env.USERPROFILE;
  const expanded = home && (p === '~' || p.startsWith('~/')) ? path.join(home, p.slice(1)) : p;
  return path.resolve(workspace, expanded);
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(p: string): boolean {
  if (!isFile(p)) return false;
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
