import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginEnv, runPluginScript } from './scriptRunner';

function writeScript(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

/** Gone, or a zombie nobody reaped yet: either way it runs no more. It can be reaped between any two reads. */
function stopped(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw err;
  }
}

async function untilStopped(pid: number): Promise<void> {
  while (!stopped(pid)) await new Promise((r) => setImmediate(r));
}

test('a script stopped (timeout or abort) is stopped with everything it started: its process group', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-run-'));
  const pidFile = join(dir, 'grandchild.pid');
  const script = writeScript(
    dir,
    'hang.sh',
    `#!/usr/bin/env bash\nsleep 300 &\necho $! > ${JSON.stringify(pidFile)}.tmp\nmv ${JSON.stringify(pidFile)}.tmp ${JSON.stringify(pidFile)}\nwait\n`,
  );
  const abort = new AbortController();
  const running = runPluginScript({
    script,
    input: '{}',
    timeoutMs: 600_000,
    env: process.env,
    label: 'plugin hook',
    signal: abort.signal,
  });
  while (!existsSync(pidFile)) await new Promise((r) => setImmediate(r));
  const grandchild = Number(readFileSync(pidFile, 'utf8').trim());
  assert.ok(grandchild > 0 && !stopped(grandchild));
  abort.abort();
  assert.equal((await running).kind, 'aborted');
  await untilStopped(grandchild);
});

test('stdout over 1 MiB fails the run with upstream’s text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-run-'));
  const script = writeScript(dir, 'flood.js', "#!/usr/bin/env node\nprocess.stdout.write('x'.repeat(2 * 1024 * 1024));\n");
  const result = await runPluginScript({ script, input: '{}', timeoutMs: 10_000, env: process.env, label: 'plugin tool' });
  assert.deepEqual(result, { kind: 'failed', message: 'plugin tool output exceeds the 1048576 byte per-stream limit' });
});

test('the environment a script sees keeps only upstream’s variables', () => {
  const env = pluginEnv({ PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'sk-x', ENGRAPHIS_URL: 'u', GITHUB_TOKEN: 't', USER: 'me' });
  assert.deepEqual(env, { PATH: '/bin', HOME: '/h', ENGRAPHIS_URL: 'u', USER: 'me' });
});
