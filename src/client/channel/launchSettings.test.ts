import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { coreEnvironment, readLaunchSettings } from './launchSettings';

const from = (values: Record<string, unknown>) => (key: string) => values[key];

describe('readLaunchSettings', () => {
  test('defaults', () => {
    assert.deepEqual(readLaunchSettings(from({})), {
      kind: 'embedded',
      path: '',
      args: [],
      env: {},
      approvalMode: 'destructive',
      defaultModel: '',
      bashTimeoutSecs: undefined,
      autoCompact: true,
      scvApprovalPolicy: 'on-risk',
      webEnabled: true,
    });
  });

  test('reads valid values', () => {
    const s = readLaunchSettings(
      from({
        'core.kind': 'catalyst',
        'core.path': ' /usr/bin/catcode-core ',
        'core.args': ['--debug'],
        'core.env': { FOO: 'bar', N: 3 },
        approvalMode: 'always',
        defaultModel: 'gpt-x',
        bashTimeoutSecs: 60,
        autoCompact: false,
        'scv.approvalPolicy': 'never',
      }),
    );
    assert.deepEqual(s, {
      kind: 'catalyst',
      path: '/usr/bin/catcode-core',
      args: ['--debug'],
      env: { FOO: 'bar', N: '3' },
      approvalMode: 'always',
      defaultModel: 'gpt-x',
      bashTimeoutSecs: 60,
      autoCompact: false,
      scvApprovalPolicy: 'never',
      webEnabled: true,
    });
    assert.equal(readLaunchSettings(from({ 'core.kind': 'scv', 'scv.approvalPolicy': 'always' })).scvApprovalPolicy, 'always');
    assert.equal(readLaunchSettings(from({ 'core.kind': 'scv' })).kind, 'scv');
  });

  test('wrong types and values fall back', () => {
    const s = readLaunchSettings(
      from({
        'core.kind': 'docker',
        'core.path': 7,
        'core.args': ['ok', 3, null],
        'core.env': { 'BAD NAME': 'x', OBJ: { a: 1 }, GOOD: 'y' },
        approvalMode: 'yolo',
        bashTimeoutSecs: -5,
        autoCompact: 'yes',
        'scv.approvalPolicy': 'auto',
      }),
    );
    assert.equal(s.scvApprovalPolicy, 'on-risk');
    assert.equal(s.kind, 'embedded');
    assert.equal(s.path, '');
    assert.deepEqual(s.args, ['ok']);
    assert.deepEqual(s.env, { GOOD: 'y' });
    assert.equal(s.approvalMode, 'destructive');
    assert.equal(s.bashTimeoutSecs, undefined);
    assert.equal(s.autoCompact, true);
    assert.deepEqual(readLaunchSettings(from({ 'core.env': ['A=1'] })).env, {});
  });
});

describe('coreEnvironment', () => {
  test('adds auto-compaction in its upstream env form', () => {
    assert.deepEqual(coreEnvironment(readLaunchSettings(from({ 'core.env': { A: '1' }, autoCompact: false }))), {
      A: '1',
      CATALYST_CODE_AUTO_COMPACT: '0',
    });
    assert.equal(coreEnvironment(readLaunchSettings(from({}))).CATALYST_CODE_AUTO_COMPACT, '1');
    assert.equal(coreEnvironment(readLaunchSettings(from({}))).CATALYST_CODE_WEB_TOOLS, undefined, 'on: left to the config files');
    assert.equal(coreEnvironment(readLaunchSettings(from({ 'web.enabled': false }))).CATALYST_CODE_WEB_TOOLS, '0');
  });
});
