import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { HELP_TEXT, parseCli } from './cli';

describe('parseCli', () => {
  test('reads `--flag value` and `--flag=value` forms', () => {
    const o = parseCli(['--workspace', '/w', '--approval=never', '--bash-timeout', '45', '--idle-timeout=90', '--session', 's.jsonl']);
    assert.equal(o.workspace, '/w');
    assert.equal(o.approval, 'never');
    assert.equal(o.bashTimeoutSecs, 45);
    assert.equal(o.idleTimeoutSecs, 90);
    assert.equal(o.session, 's.jsonl');
    assert.equal(o.help, false);
    assert.equal(o.version, false);
  });

  test('reads every value flag the clients pass', () => {
    const o = parseCli([
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--max-bash-timeout',
      '900',
      '--fetch-timeout',
      '5',
      '--diag-timeout',
      '60',
      '--sandbox',
      'microsandbox',
      '--sandbox-image',
      'img:1',
      '--sandbox-cpus',
      '4',
      '--sandbox-memory-mb',
      '1024',
      '--sandbox-disk-mb',
      '4096',
      '--sandbox-network',
      'allowlist',
      '--sandbox-env-allowlist',
      'A, B,,C',
      '--max-session-tokens',
      '1000',
      '--debug-log',
      'd.jsonl',
      '--model',
      'glm',
      '--provider',
      'p',
      '--config',
      'c.json',
    ]);
    assert.deepEqual(o, {
      help: false,
      version: false,
      baseUrl: 'http://127.0.0.1:9/v1',
      maxBashTimeoutSecs: 900,
      fetchTimeoutSecs: 5,
      diagTimeoutSecs: 60,
      sandbox: 'microsandbox',
      sandboxImage: 'img:1',
      sandboxCpus: 4,
      sandboxMemoryMb: 1024,
      sandboxDiskMb: 4096,
      sandboxNetwork: 'allowlist',
      sandboxEnvAllowlist: ['A', 'B', 'C'],
      maxSessionTokens: 1000,
      debugLog: 'd.jsonl',
      model: 'glm',
      provider: 'p',
      configFile: 'c.json',
    });
  });

  test('switches: --no-network, --debug, trust and its negation (last wins), =value forms', () => {
    assert.deepEqual(parseCli(['--no-network', '--debug', '--trust-project-plugins']), {
      help: false,
      version: false,
      noNetwork: true,
      debug: true,
      trustProjectPlugins: true,
    });
    assert.equal(parseCli(['--trust-project-plugins', '--no-trust-project-plugins']).trustProjectPlugins, false);
    assert.equal(parseCli(['--debug=0']).debug, false);
    assert.equal(parseCli(['--no-network=true']).noNetwork, true);
    assert.equal(parseCli(['--no-trust-project-plugins=false']).trustProjectPlugins, true);
    assert.equal(parseCli(['--debug=maybe']).debug, undefined);
  });

  test('ignores unknown flags and their values, but not a following flag', () => {
    const o = parseCli(['--colour', 'blue', '--workspace', '/w', '--verbose', '--approval', 'always', '--x=1', 'stray']);
    assert.deepEqual(o, { help: false, version: false, workspace: '/w', approval: 'always' });
  });

  test('help and version aliases', () => {
    assert.equal(parseCli(['-h']).help, true);
    assert.equal(parseCli(['--help']).help, true);
    assert.equal(parseCli(['-V']).version, true);
    assert.equal(parseCli(['--version']).version, true);
  });

  test('malformed numbers and a missing trailing value leave the option unset', () => {
    const o = parseCli(['--bash-timeout', 'soon', '--idle-timeout=-5', '--max-session-tokens', '1.5', '--session']);
    assert.equal(o.bashTimeoutSecs, undefined);
    assert.equal(o.idleTimeoutSecs, undefined);
    assert.equal(o.maxSessionTokens, undefined);
    assert.equal(o.session, undefined);
    assert.equal('bashTimeoutSecs' in o, false);
  });

  test('a known value flag takes the next argument whatever it is (upstream behaviour)', () => {
    assert.equal(parseCli(['--model', '--debug']).model, '--debug');
  });
});

describe('HELP_TEXT', () => {
  test('documents every flag with its env var and default', () => {
    const flags = [
      '--workspace',
      '--base-url',
      '--approval',
      '--bash-timeout',
      '--max-bash-timeout',
      '--fetch-timeout',
      '--diag-timeout',
      '--sandbox',
      '--sandbox-image',
      '--sandbox-cpus',
      '--sandbox-memory-mb',
      '--sandbox-disk-mb',
      '--sandbox-network',
      '--sandbox-env-allowlist',
      '--no-network',
      '--trust-project-plugins',
      '--no-trust-project-plugins',
      '--idle-timeout',
      '--max-session-tokens',
      '--debug-log',
      '--debug',
      '--session',
      '--model',
      '--provider',
      '--config',
      '--help',
      '--version',
    ];
    for (const f of flags) assert.match(HELP_TEXT, new RegExp(`${f}\\b`), f);
    const line = HELP_TEXT.split('\n').find((l) => l.includes('--bash-timeout '));
    assert.match(line ?? '', /CATALYST_CODE_BASH_TIMEOUT/);
    assert.match(line ?? '', /default: 30/);
    assert.match(HELP_TEXT, /UMANS_PROVIDERS/);
  });
});
