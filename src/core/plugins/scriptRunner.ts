/**
 * Runs one plugin script as upstream does (`plugin_run`): its own process group, a cleared environment, one JSON
 * document on stdin, stdout and stderr capped at 1 MiB each, and a timeout that kills the whole group.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { extname } from 'node:path';
import { killProcessGroup } from '../platform/processGroup';

export const MAX_PLUGIN_IO_BYTES = 1024 * 1024;

export type ScriptResult =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  | { kind: 'timed_out' }
  | { kind: 'aborted' }
  | { kind: 'failed'; message: string };

/**
 * The only variables a plugin script sees (upstream's `hook_command_with_env`): no keys, no tokens; `passthrough` is an
 * OAuth block's `env_passthrough` (secret-looking names are refused when the manifest loads).
 */
export function pluginEnv(env: NodeJS.ProcessEnv, passthrough: readonly string[] = []): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (['PATH', 'HOME', 'TMPDIR', 'USER', 'PYTHONPATH'].includes(k) || k.startsWith('ENGRAPHIS_') || passthrough.includes(k)) out[k] = v;
  }
  return out;
}

/** `label` names the stream in the overflow message: "plugin hook", "plugin tool", "plugin command". */
export function runPluginScript(opts: {
  script: string;
  input: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  label: string;
  signal?: AbortSignal;
  envPassthrough?: readonly string[];
}): Promise<ScriptResult> {
  if (Buffer.byteLength(opts.input) > MAX_PLUGIN_IO_BYTES) {
    return Promise.resolve({ kind: 'failed', message: `${opts.label} input exceeds the ${MAX_PLUGIN_IO_BYTES} byte limit` });
  }
  const [program, args] = interpreter(opts.script, opts.env);
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      env: pluginEnv(opts.env, opts.envPassthrough),
      stdio: 'pipe',
      detached: process.platform !== 'win32',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    const finish = (result: ScriptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (result.kind !== 'exited') void killGroup(child.pid);
      resolve(result);
    };
    const collect = (chunks: Buffer[], which: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const total = which === 'stdout' ? (outBytes += chunk.length) : (errBytes += chunk.length);
      if (total > MAX_PLUGIN_IO_BYTES)
        finish({ kind: 'failed', message: `${opts.label} output exceeds the ${MAX_PLUGIN_IO_BYTES} byte per-stream limit` });
      else chunks.push(chunk);
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    const timer = setTimeout(() => finish({ kind: 'timed_out' }), opts.timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    child.stdout.on('data', collect(out, 'stdout'));
    child.stderr.on('data', collect(err, 'stderr'));
    child.on('error', (e) => finish({ kind: 'failed', message: `failed to spawn script ${JSON.stringify(opts.script)}: ${e.message}` }));
    child.on('close', (code, signal) =>
      finish({ kind: 'exited', code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    // A script that never reads its stdin must not fail the write (EPIPE).
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input);
  });
}

/** Rust's `ExitStatus` display, which upstream's messages embed: `exit status: 3`, `signal: 9 (SIGKILL)`. */
export function exitStatusText(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal: ${signalNumber(signal)} (${signal})`;
  return `exit status: ${code ?? -1}`;
}

function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0;
}

/** By extension, as upstream: `.py` → python3, `.sh`/`.bash` → bash (or $CATALYST_CODE_SHELL), anything else directly. */
function interpreter(script: string, env: NodeJS.ProcessEnv): [string, string[]] {
  const ext = extname(script).toLowerCase();
  if (ext === '.py') return ['python3', [script]];
  if (ext === '.sh' || ext === '.bash') return [env.CATALYST_CODE_SHELL || 'bash', [script]];
  return [script, []];
}

async function killGroup(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
    return;
  }
  await killProcessGroup(pid, 0);
}
