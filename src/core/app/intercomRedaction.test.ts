import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../config/cli';
import { loadConfig } from '../config/config';
import { createCoreRuntime } from './createCoreRuntime';
import { ORCHESTRATOR } from '../intercom/intercomBus';

const LIVE_KEY = 'live-provider-key-INTERCOMMARKER-42';

test("a subagent's intercom message reaches the client with the secrets scrubbed, like any event", async () => {
  const root = mkdtempSync(join(tmpdir(), 'intercom-redact-'));
  try {
    const ws = join(root, 'ws');
    mkdirSync(ws);
    const lines: string[] = [];
    // The default provider's key variable: its value is a live secret.
    const env = { UMANS_API_KEY: LIVE_KEY };
    const rt = createCoreRuntime(
      loadConfig(parseCli([]), env, { home: join(root, 'home'), cwd: ws }),
      env,
      (l) => lines.push(l),
      () => {},
    );
    assert.ok(rt.secrets().includes(LIVE_KEY), 'the provider key is a live secret');
    rt.intercom.register('subagent-worker-run1');
    rt.intercom.send('subagent-worker-run1', ORCHESTRATOR, `found ${LIVE_KEY} in .env`, 'progress_update');
    const { id, outcome } = rt.intercom.ask(
      'subagent-worker-run1',
      ORCHESTRATOR,
      `may I use ${LIVE_KEY}?`,
      'need_decision',
      new AbortController().signal,
    );
    const messages = lines.map((l) => JSON.parse(l)).filter((e) => e.type === 'intercom_message');
    assert.deepEqual(
      messages.map((e) => [e.reason, e.message]),
      [
        ['progress_update', 'found [REDACTED] in .env'],
        ['need_decision', 'may I use [REDACTED]?'],
      ],
    );
    assert.equal(messages[1].id, id);
    assert.equal(lines.join('\n').includes(LIVE_KEY), false);
    rt.intercom.reset();
    assert.deepEqual(await outcome, { kind: 'session_replaced' });
    await rt.checkpoints.idle();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
