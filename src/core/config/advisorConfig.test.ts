import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from './cli';
import { loadConfig } from './config';

function loadWith(config: unknown) {
  const root = mkdtempSync(join(tmpdir(), 'cfg-advisor-'));
  try {
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(join(home, '.config', 'catalyst-code'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    if (config !== undefined) writeFileSync(join(home, '.config', 'catalyst-code', 'config.json'), JSON.stringify(config));
    return loadConfig(parseCli([]), {}, { home, cwd });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the advisor is off by default, as upstream', () => {
  assert.deepEqual(loadWith(undefined).advisor, { enabled: false });
});

test('advisor{enabled, model} from config.json', () => {
  assert.deepEqual(loadWith({ advisor: { enabled: true, model: ' cheap-model ' } }).advisor, { enabled: true, model: 'cheap-model' });
});

test('mistyped advisor settings are ignored with a warning, and it stays off', () => {
  const c = loadWith({ advisor: { enabled: 'yes', model: 5 } });
  assert.deepEqual(c.advisor, { enabled: false });
  assert.ok(c.warnings.some((w) => w.includes('advisor.enabled must be true or false')));
  assert.ok(c.warnings.some((w) => w.includes('advisor.model must be a model id')));
  assert.ok(loadWith({ advisor: true }).warnings.some((w) => w.includes('advisor must be an object')));
});
