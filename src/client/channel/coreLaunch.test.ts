import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoreLaunchOptions, NO_CORE_FOUND, NO_SCV_FOUND, findOnPath, resolveCoreLaunch } from './coreLaunch';

let dir: string;
let embedded: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'core-launch-'));
  embedded = join(dir, 'core.js');
  writeFileSync(embedded, '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function options(over: Partial<CoreLaunchOptions> = {}): CoreLaunchOptions {
  return {
    kind: 'embedded',
    env: { PATH: '' },
    embeddedCorePath: embedded,
    nodePath: '/usr/bin/node',
    workspace: '/ws',
    extraArgs: [],
    extraEnv: {},
    ...over,
  };
}

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('resolveCoreLaunch', () => {
  test('embedded: the host runtime runs core.js with upstream flags, as Node (ELECTRON_RUN_AS_NODE)', () => {
    const r = resolveCoreLaunch(
      options({
        approval: 'destructive',
        sessionFile: '/s/a.jsonl',
        bashTimeoutSecs: 45,
        extraArgs: ['--idle-timeout', '60'],
        env: { PATH: '/bin', HOME: '/h', UNSET: undefined },
        extraEnv: { FOO: 'bar' },
      }),
    );
    assert.ok(!('error' in r));
    assert.equal(r.kind, 'embedded');
    assert.equal(r.command, '/usr/bin/node');
    assert.deepEqual(r.args, [
      embedded,
      '--workspace',
      '/ws',
      '--approval',
      'destructive',
      '--session',
      '/s/a.jsonl',
      '--bash-timeout',
      '45',
      '--idle-timeout',
      '60',
    ]);
    assert.deepEqual(r.env, { PATH: '/bin', HOME: '/h', CATALYST_CODE_NO_BROWSER: '1', FOO: 'bar', ELECTRON_RUN_AS_NODE: '1' });
  });

  test('optional flags are left out when not given', () => {
    const r = resolveCoreLaunch(options());
    assert.ok(!('error' in r));
    assert.deepEqual(r.args, [embedded, '--workspace', '/ws']);
  });

  test('embedded: a missing bundle is an error, not a spawn failure', () => {
    const r = resolveCoreLaunch(options({ embeddedCorePath: join(dir, 'nope.js') }));
    assert.ok('error' in r);
    assert.match(r.error, /embedded core is missing/);
  });

  test('catalyst: the configured path wins over $CATCODE_CORE and PATH', () => {
    const configured = executable(join(dir, 'configured', 'catcode-core'));
    const fromEnv = executable(join(dir, 'env', 'catcode-core'));
    const onPath = executable(join(dir, 'bin', 'catcode-core'));
    const env = { PATH: join(dir, 'bin'), CATCODE_CORE: fromEnv };
    const a = resolveCoreLaunch(options({ kind: 'catalyst', configuredPath: configured, env, sessionFile: '/s/x.jsonl' }));
    assert.ok(!('error' in a));
    assert.equal(a.command, configured);
    assert.deepEqual(a.args, ['--workspace', '/ws', '--session', '/s/x.jsonl']);
    assert.equal(a.env.ELECTRON_RUN_AS_NODE, undefined);
    assert.equal(a.env.CATALYST_CODE_NO_BROWSER, '1', 'the extension opens OAuth URLs, never the core');
    const overridden = resolveCoreLaunch(
      options({ kind: 'catalyst', configuredPath: configured, env, extraEnv: { CATALYST_CODE_NO_BROWSER: '0' } }),
    );
    assert.ok(!('error' in overridden) && overridden.env.CATALYST_CODE_NO_BROWSER === '0', 'extraEnv can override it');
    const b = resolveCoreLaunch(options({ kind: 'catalyst', env }));
    assert.ok(!('error' in b) && b.command === fromEnv);
    const c = resolveCoreLaunch(options({ kind: 'catalyst', env: { PATH: `/nonexistent:${join(dir, 'bin')}` } }));
    assert.ok(!('error' in c) && c.command === onPath);
  });

  test('catalyst: nothing found says how to fix it', () => {
    const r = resolveCoreLaunch(options({ kind: 'catalyst', env: { PATH: dir } }));
    assert.deepEqual(r, { error: NO_CORE_FOUND });
    assert.equal(NO_CORE_FOUND, 'no catcode-core found: set catalystCode.core.path or $CATCODE_CORE');
  });

  test('catalyst: a configured path that is not an executable file is reported', () => {
    writeFileSync(join(dir, 'plain'), '');
    const r = resolveCoreLaunch(options({ kind: 'catalyst', configuredPath: join(dir, 'plain') }));
    assert.ok('error' in r);
    assert.match(r.error, /catalystCode\.core\.path .* not an executable file/);
    const e = resolveCoreLaunch(options({ kind: 'catalyst', env: { CATCODE_CORE: join(dir, 'missing') } }));
    assert.ok('error' in e);
    assert.match(e.error, /\$CATCODE_CORE/);
  });

  test('catalyst: ~ expands to HOME', () => {
    const bin = executable(join(dir, 'home', 'bin', 'core'));
    const r = resolveCoreLaunch(options({ kind: 'catalyst', configuredPath: '~/bin/core', env: { HOME: join(dir, 'home') } }));
    assert.ok(!('error' in r) && r.command === bin);
  });

  test('scv: a configured scv-server gets SCV flags only, never Catalyst ones', () => {
    const server = executable(join(dir, 'opt', 'scv-server'));
    const r = resolveCoreLaunch(
      options({
        kind: 'scv',
        configuredPath: server,
        scvApprovalPolicy: 'always',
        approval: 'never',
        sessionFile: '/s/a.jsonl',
        bashTimeoutSecs: 30,
        extraArgs: ['--model', 'm1'],
        env: { PATH: '/bin' },
        extraEnv: { RUST_LOG: 'info' },
      }),
    );
    assert.ok(!('error' in r));
    assert.equal(r.kind, 'scv');
    assert.equal(r.command, server);
    assert.deepEqual(r.args, ['--approval-policy', 'always', '--model', 'm1']);
    assert.deepEqual(r.env, { PATH: '/bin', RUST_LOG: 'info' });
  });

  test('scv: the main scv binary takes the flags globally, before its server subcommand', () => {
    const scv = executable(join(dir, 'opt', 'scv'));
    const r = resolveCoreLaunch(
      options({ kind: 'scv', configuredPath: scv, scvApprovalPolicy: 'on-risk', extraArgs: ['--provider', 'p'] }),
    );
    assert.ok(!('error' in r));
    assert.deepEqual(r.args, ['--approval-policy', 'on-risk', '--provider', 'p', 'server']);
    const plain = resolveCoreLaunch(options({ kind: 'scv', configuredPath: scv }));
    assert.ok(!('error' in plain));
    assert.deepEqual(plain.args, ['server'], 'no policy set: SCV keeps its own default');
  });

  test('scv: the setting wins over $SCV_SERVER, which wins over scv-server and then scv on PATH', () => {
    const configured = executable(join(dir, 'configured', 'my-scv'));
    const fromEnv = executable(join(dir, 'env', 'scv'));
    const serverOnPath = executable(join(dir, 'bin1', 'scv-server'));
    const scvOnPath = executable(join(dir, 'bin2', 'scv'));
    const bothOnPath = [join(dir, 'bin2'), join(dir, 'bin1')].join(':');
    const a = resolveCoreLaunch(options({ kind: 'scv', configuredPath: configured, env: { PATH: bothOnPath, SCV_SERVER: fromEnv } }));
    assert.ok(!('error' in a) && a.command === configured);
    assert.deepEqual(a.args, [], 'any other basename is run as a server binary');
    const b = resolveCoreLaunch(options({ kind: 'scv', env: { PATH: bothOnPath, SCV_SERVER: fromEnv } }));
    assert.ok(!('error' in b) && b.command === fromEnv);
    assert.deepEqual(b.args, ['server']);
    const c = resolveCoreLaunch(options({ kind: 'scv', env: { PATH: bothOnPath } }));
    assert.ok(!('error' in c) && c.command === serverOnPath, 'scv-server is preferred even when scv comes first on PATH');
    assert.deepEqual(c.args, []);
    const d = resolveCoreLaunch(options({ kind: 'scv', env: { PATH: join(dir, 'bin2') } }));
    assert.ok(!('error' in d) && d.command === scvOnPath);
    assert.deepEqual(d.args, ['server']);
  });

  test('scv: nothing found, or an unusable path, is a clear error naming the setting', () => {
    assert.deepEqual(resolveCoreLaunch(options({ kind: 'scv', env: { PATH: dir } })), { error: NO_SCV_FOUND });
    assert.match(NO_SCV_FOUND, /catalystCode\.core\.path/);
    writeFileSync(join(dir, 'plain'), '');
    const r = resolveCoreLaunch(options({ kind: 'scv', configuredPath: join(dir, 'plain') }));
    assert.ok('error' in r);
    assert.match(r.error, /catalystCode\.core\.path .* not an executable file/);
    const e = resolveCoreLaunch(options({ kind: 'scv', env: { SCV_SERVER: join(dir, 'missing') } }));
    assert.ok('error' in e);
    assert.match(e.error, /\$SCV_SERVER .* not an executable file/);
  });

  test('no key is added to args or env by the resolver', () => {
    const r = resolveCoreLaunch(options({ env: { PATH: '/bin' } }));
    assert.ok(!('error' in r));
    assert.ok(!r.args.some((a) => /key/i.test(a)));
    assert.deepEqual(Object.keys(r.env).sort(), ['CATALYST_CODE_NO_BROWSER', 'ELECTRON_RUN_AS_NODE', 'PATH']);
  });
});

describe('findOnPath', () => {
  test('skips directories and non-executables', () => {
    mkdirSync(join(dir, 'a', 'tool'), { recursive: true });
    writeFileSync(join(dir, 'b-tool'), '');
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'tool'), '');
    const good = executable(join(dir, 'c', 'tool'));
    assert.equal(findOnPath('tool', { PATH: [join(dir, 'a'), join(dir, 'b'), join(dir, 'c')].join(':') }, 'linux'), good);
    assert.equal(findOnPath('tool', {}, 'linux'), undefined);
  });
});
