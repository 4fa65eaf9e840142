import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseCli } from './cli';
import { loadConfig, resolveApiKey, selectActiveProvider, type CoreConfig } from './config';

let root: string;
let home: string;
let cwd: string;
let configDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cfg-test-'));
  home = join(root, 'home');
  cwd = join(root, 'project');
  configDir = join(home, '.config', 'catalyst-code');
  mkdirSync(configDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
}

function load(args: string[] = [], env: NodeJS.ProcessEnv = {}): CoreConfig {
  return loadConfig(parseCli(args), env, { home, cwd });
}

describe('loadConfig defaults', () => {
  test('without files, env or flags', () => {
    const c = load();
    assert.equal(c.workspace, cwd);
    assert.equal(c.approval, 'destructive');
    assert.equal(c.bashTimeoutSecs, 30);
    assert.equal(c.maxBashTimeoutSecs, 600);
    assert.equal(c.idleTimeoutSecs, 120);
    assert.equal(c.maxSessionTokens, 0);
    assert.equal(c.autoCompact, true);
    assert.equal(c.sandbox, 'none');
    assert.equal(c.noNetwork, false);
    assert.equal(c.configDir, configDir);
    assert.equal(c.homeDir, home);
    assert.equal(c.sessionFile, undefined);
    assert.deepEqual(c.permissions, { allow: [], deny: [], ask: [] });
    assert.deepEqual(c.providers, [
      { name: 'default', kind: 'openai', baseUrl: 'https://api.code.umans.ai/v1', apiKeyEnv: 'UMANS_API_KEY', headers: {} },
    ]);
    assert.deepEqual(c.warnings, []);
  });

  test('the default provider follows the base URL from env and flag', () => {
    assert.equal(load([], { UMANS_BASE_URL: 'http://127.0.0.1:1/v1' }).providers[0].baseUrl, 'http://127.0.0.1:1/v1');
    assert.equal(
      load(['--base-url', 'http://127.0.0.1:2/v1/'], { UMANS_BASE_URL: 'http://127.0.0.1:1/v1' }).providers[0].baseUrl,
      'http://127.0.0.1:2/v1',
    );
  });
});

describe('loadConfig layering', () => {
  test('each file overrides the one before it, in the documented order', () => {
    const steps: Array<[string, number]> = [
      [join(configDir, 'config.json'), 11],
      [join(configDir, 'catalyst-code.d', '10-a.json'), 12],
      [join(configDir, 'catalyst-code.d', '20-b.json'), 13],
      [join(configDir, 'settings.json'), 14],
      [join(cwd, 'settings.json'), 15],
      [join(cwd, 'settings.local.json'), 16],
    ];
    assert.equal(load().bashTimeoutSecs, 30);
    for (const [path, secs] of steps) {
      write(path, { bash_timeout_secs: secs });
      assert.equal(load().bashTimeoutSecs, secs, path);
    }
    // Drop-ins are applied in sorted order, not creation order.
    write(join(configDir, 'catalyst-code.d', '00-first.json'), { model: 'first' });
    write(join(configDir, 'catalyst-code.d', '10-a.json'), { model: 'second' });
    assert.equal(load().model, 'second');
    // Only *.json files in the drop-in folder count.
    write(join(configDir, 'catalyst-code.d', '99-z.txt'), { model: 'ignored' });
    assert.equal(load().model, 'second');
  });

  test('project files cannot set security-sensitive keys, but can set others', () => {
    write(join(cwd, 'settings.json'), {
      approval: 'never',
      base_url: 'http://evil/v1',
      providers: [{ name: 'evil', base_url: 'http://evil/v1' }],
      provider_keys: { x: 'k' },
      api_key: 'k',
      permissions: { allow: ['bash(*)'] },
      sandbox: 'none',
      sandbox_image: 'evil',
      no_network: false,
      fetch_allowlist: ['*'],
      bash_deny: [],
      search_keys: { exa: 'k' },
      plugins: {},
      workspace: '/',
      session: '/tmp/x',
      debug_log: '/tmp/y',
      model: 'proj-model',
      bash_timeout_secs: 99,
      auto_compact: false,
    });
    write(join(configDir, 'settings.json'), { approval: 'always' });
    const c = load();
    assert.equal(c.approval, 'always');
    assert.equal(c.baseUrl, 'https://api.code.umans.ai/v1');
    assert.deepEqual(
      c.providers.map((p) => p.name),
      ['default'],
    );
    assert.deepEqual(c.providerKeys, {});
    assert.deepEqual(c.searchKeys, {});
    assert.deepEqual(c.permissions.allow, []);
    assert.deepEqual(c.fetchAllowlist, []);
    assert.equal(c.workspace, cwd);
    assert.equal(c.sessionFile, undefined);
    assert.equal(c.debugLog, undefined);
    assert.equal(c.model, 'proj-model');
    assert.equal(c.bashTimeoutSecs, 99);
    assert.equal(c.autoCompact, false);
    assert.equal(c.warnings.length, 1);
    assert.match(c.warnings[0], /approval/);
    assert.match(c.warnings[0], /providers/);
    assert.match(c.warnings[0], /sandbox_image/);
    assert.ok(c.warnings[0].includes(join(cwd, 'settings.json')));
  });

  test('the same keys are honoured from user-owned files', () => {
    write(join(configDir, 'settings.json'), {
      approval: 'never',
      base_url: 'http://127.0.0.1:5/v1',
      permissions: { allow: ['read_file(src/**)'] },
      fetch_allowlist: ['docs.rs'],
      session: 'sess.jsonl',
      workspace: 'sub',
      debug_log: 'dbg.jsonl',
    });
    const c = load();
    assert.equal(c.approval, 'never');
    assert.equal(c.baseUrl, 'http://127.0.0.1:5/v1');
    assert.deepEqual(c.permissions.allow, ['read_file(src/**)']);
    assert.deepEqual(c.fetchAllowlist, ['docs.rs']);
    assert.equal(c.sessionFile, join(cwd, 'sess.jsonl'));
    assert.equal(c.workspace, join(cwd, 'sub'));
    assert.equal(c.debugLog, join(cwd, 'dbg.jsonl'));
  });

  test('env overrides files, and flags override env', () => {
    write(join(configDir, 'config.json'), {
      approval: 'always',
      bash_timeout_secs: 40,
      idle_timeout_secs: 41,
      session: 'file.jsonl',
      activeProvider: 'a',
    });
    const env = {
      CATALYST_CODE_APPROVAL: 'off',
      CATALYST_CODE_BASH_TIMEOUT: '50',
      CATALYST_CODE_IDLE_TIMEOUT: '51',
      CATALYST_CODE_SESSION: 'env.jsonl',
      UMANS_ACTIVE_PROVIDER: 'b',
      CATALYST_CODE_WORKSPACE: 'envws',
    };
    const fromEnv = load([], env);
    assert.equal(fromEnv.approval, 'never');
    assert.equal(fromEnv.bashTimeoutSecs, 50);
    assert.equal(fromEnv.idleTimeoutSecs, 51);
    assert.equal(fromEnv.sessionFile, join(cwd, 'env.jsonl'));
    assert.equal(fromEnv.activeProvider, 'b');
    assert.equal(fromEnv.workspace, join(cwd, 'envws'));

    const fromCli = load(
      ['--approval', 'all', '--bash-timeout', '60', '--session', '/abs/cli.jsonl', '--provider', 'c', '--workspace', 'cliws'],
      env,
    );
    assert.equal(fromCli.approval, 'always');
    assert.equal(fromCli.bashTimeoutSecs, 60);
    assert.equal(fromCli.idleTimeoutSecs, 51);
    assert.equal(fromCli.sessionFile, '/abs/cli.jsonl');
    assert.equal(fromCli.activeProvider, 'c');
    assert.equal(fromCli.workspace, join(cwd, 'cliws'));
  });

  test('malformed or non-object files are skipped with a warning; the other layers still apply', () => {
    write(join(configDir, 'config.json'), { bash_timeout_secs: 21 });
    write(join(configDir, 'catalyst-code.d', 'broken.json'), '{ "bash_timeout_secs": 99, ');
    write(join(configDir, 'settings.json'), '[1, 2]');
    write(join(cwd, 'settings.local.json'), { model: 'm' });
    const c = load();
    assert.equal(c.bashTimeoutSecs, 21);
    assert.equal(c.model, 'm');
    assert.equal(c.warnings.length, 2);
    assert.match(c.warnings[0], /broken\.json is not valid JSON/);
    assert.match(c.warnings[1], /settings\.json does not hold a JSON object/);
  });

  test('bad values warn and keep the previous layer; an unknown approval mode falls back to destructive', () => {
    write(join(configDir, 'config.json'), { bash_timeout_secs: -1, approval: 'yolo' });
    const c = load([], { CATALYST_CODE_IDLE_TIMEOUT: 'soon' });
    assert.equal(c.bashTimeoutSecs, 30);
    assert.equal(c.idleTimeoutSecs, 120);
    assert.equal(c.approval, 'destructive');
    assert.equal(c.warnings.length, 3);
    assert.equal(load(['--approval', 'none']).approval, 'never');
    assert.equal(load(['--approval', 'y']).approval, 'always');
    assert.equal(load(['--approval', 'auto']).approval, 'never');
  });

  test('--config replaces the search; a missing --config file is a warning', () => {
    write(join(configDir, 'config.json'), { approval: 'never' });
    write(join(cwd, 'settings.json'), { model: 'project' });
    write(join(root, 'only.json'), { bash_timeout_secs: 77, providers: [{ name: 'x', base_url: 'http://x' }] });
    const c = load(['--config', '../only.json']);
    assert.equal(c.approval, 'destructive');
    assert.equal(c.model, undefined);
    assert.equal(c.bashTimeoutSecs, 77);
    assert.deepEqual(
      c.providers.map((p) => p.name),
      ['x'],
    );
    const missing = load(['--config', 'nope.json']);
    assert.equal(missing.approval, 'destructive');
    assert.match(missing.warnings.join('\n'), /nope\.json could not be read \(ENOENT\)/);
  });
});

describe('loadConfig providers, keys and permissions', () => {
  test('providers merge across files by name; UMANS_PROVIDERS overrides and extends them', () => {
    write(join(configDir, 'config.json'), {
      providers: [
        { name: 'a', base_url: 'http://a1' },
        { name: 'b', base_url: 'http://b1' },
      ],
    });
    write(join(configDir, 'settings.json'), {
      providers: [{ name: 'a', base_url: 'http://a2', kind: 'anthropic' }, { base_url: 'http://noname' }],
    });
    const files = load();
    assert.deepEqual(
      files.providers.map((p) => [p.name, p.baseUrl, p.kind]),
      [
        ['a', 'http://a2', 'anthropic'],
        ['b', 'http://b1', 'openai'],
      ],
    );
    assert.equal(files.warnings.length, 1);
    assert.match(files.warnings[0], /provider #2 ignored: .*name/);

    const env = {
      UMANS_PROVIDERS: JSON.stringify([
        { name: 'b', baseUrl: 'http://b3', apiKeyEnv: 'B_KEY' },
        { name: 'c', base_url: 'http://c3' },
      ]),
    };
    const withEnv = load([], env);
    assert.deepEqual(
      withEnv.providers.map((p) => [p.name, p.baseUrl]),
      [
        ['a', 'http://a2'],
        ['b', 'http://b3'],
        ['c', 'http://c3'],
      ],
    );
    assert.equal(withEnv.providers[1].apiKeyEnv, 'B_KEY');
  });

  test('UMANS_PROVIDERS alone configures providers (no default provider then); malformed JSON warns', () => {
    const c = load([], { UMANS_PROVIDERS: '[{"name":"local","base_url":"http://127.0.0.1:11434/v1"}]' });
    assert.deepEqual(
      c.providers.map((p) => p.name),
      ['local'],
    );
    const bad = load([], { UMANS_PROVIDERS: '[{"name":' });
    assert.deepEqual(
      bad.providers.map((p) => p.name),
      ['default'],
    );
    assert.match(bad.warnings.join('\n'), /UMANS_PROVIDERS is not valid JSON/);
  });

  test('provider_keys merge; legacy api_key becomes "default" unless the same file names one', () => {
    write(join(configDir, 'config.json'), { api_key: 'legacy-1', provider_keys: { a: 'ka' } });
    assert.deepEqual(load().providerKeys, { default: 'legacy-1', a: 'ka' });
    write(join(configDir, 'settings.json'), { api_key: 'legacy-2', provider_keys: { default: 'explicit', b: 'kb', empty: '' } });
    assert.deepEqual(load().providerKeys, { default: 'explicit', a: 'ka', b: 'kb' });
  });

  test('activeProvider and active_provider are both read; snake_case wins within a file', () => {
    write(join(configDir, 'config.json'), { activeProvider: 'camel' });
    assert.equal(load().activeProvider, 'camel');
    write(join(configDir, 'config.json'), { activeProvider: 'camel', active_provider: 'snake' });
    assert.equal(load().activeProvider, 'snake');
  });

  test('permission rules accumulate across trusted files without duplicates', () => {
    write(join(configDir, 'config.json'), { permissions: { allow: ['bash(npm test*)'], deny: ['bash(rm *)'] } });
    write(join(configDir, 'settings.json'), { permissions: { allow: ['bash(npm test*)', 'read_file'], ask: ['write_file(.github/**)'] } });
    assert.deepEqual(load().permissions, {
      allow: ['bash(npm test*)', 'read_file'],
      deny: ['bash(rm *)'],
      ask: ['write_file(.github/**)'],
    });
  });

  test('selectActiveProvider falls back to the first provider for an unknown name', () => {
    write(join(configDir, 'config.json'), {
      providers: [
        { name: 'a', base_url: 'http://a' },
        { name: 'b', base_url: 'http://b' },
      ],
      activeProvider: 'b',
    });
    const c = load();
    assert.equal(selectActiveProvider(c).name, 'b');
    assert.equal(selectActiveProvider(c, 'a').name, 'a');
    assert.equal(selectActiveProvider(c, 'zzz').name, 'a');
  });
});

describe('loadConfig other settings', () => {
  test('--debug defaults the log into the config dir; --no-network forces the sandbox network off', () => {
    const c = load(['--debug', '--no-network', '--sandbox', 'firejail']);
    assert.equal(c.debug, true);
    assert.equal(c.debugLog, join(configDir, 'debug.jsonl'));
    assert.equal(c.noNetwork, true);
    assert.equal(c.sandboxNetworkMode, 'none');
    assert.equal(c.sandbox, 'microsandbox');
    assert.equal(load([], { CATALYST_CODE_DEBUG: '1', CATALYST_CODE_DEBUG_LOG: 'mine.jsonl' }).debugLog, join(cwd, 'mine.jsonl'));
  });

  test('env switches: empty/1/true mean on; AUTO_COMPACT=0 turns compaction off; shell', () => {
    const c = load([], {
      CATALYST_CODE_NO_NETWORK: '',
      CATALYST_CODE_TRUST_PROJECT_PLUGINS: 'true',
      CATALYST_CODE_AUTO_COMPACT: '0',
      CATALYST_CODE_SHELL: 'pwsh',
    });
    assert.equal(c.noNetwork, true);
    assert.equal(c.trustProjectPlugins, true);
    assert.equal(c.autoCompact, false);
    assert.equal(c.shell, 'powershell');
    assert.equal(load(['--no-trust-project-plugins'], { CATALYST_CODE_TRUST_PROJECT_PLUGINS: '1' }).trustProjectPlugins, false);
    assert.equal(load([], { CATALYST_CODE_NO_NETWORK: '0' }).noNetwork, false);
  });

  test('out-of-range sandbox resources fall back to defaults with a warning', () => {
    const c = load(['--sandbox-cpus', '64', '--sandbox-env-allowlist', 'GOOD,1BAD']);
    assert.equal(c.sandboxCpus, 2);
    assert.deepEqual(c.sandboxEnvAllowlist, ['GOOD']);
    assert.equal(c.warnings.length, 2);
  });

  test('compact instructions: env sets them, blank clears them', () => {
    write(join(configDir, 'config.json'), { compact_instructions: 'keep code' });
    assert.equal(load().compactInstructions, 'keep code');
    assert.equal(load([], { CATALYST_CODE_COMPACT_INSTRUCTIONS: ' ' }).compactInstructions, undefined);
  });
});

describe('loadConfig subagents', () => {
  const defaults = {
    maxDepth: 2,
    parallelConcurrency: 4,
    parallelMaxTasks: 64,
    disableBuiltins: false,
    agentOverrides: {},
    intercomBridge: 'always',
  };

  test('defaults: depth 2, concurrency 4, a soft cap of 64 tasks, the builtins as they are, the bridge always on', () => {
    assert.deepEqual(load().subagents, defaults);
  });

  test("disableBuiltins, agentOverrides merged per agent across files, and the bridge mode in upstream's spellings", () => {
    write(join(configDir, 'config.json'), {
      subagents: {
        agentOverrides: { scout: { model: 'fast-1', thinking: 'high' }, worker: { disabled: true } },
        intercomBridge: { mode: 'fork_only' },
      },
    });
    // Raw JSON, so that "__proto__" is a real key, which must not reach the prototype.
    write(
      join(configDir, 'settings.json'),
      '{"subagents":{"disableBuiltins":true,"agentOverrides":{"scout":{"fallbackModels":["a"," ","b"]},"__proto__":{"model":"x"}}}}',
    );
    const c = load();
    assert.equal(c.subagents.disableBuiltins, true);
    assert.equal(c.subagents.intercomBridge, 'fork-only');
    assert.deepEqual(c.subagents.agentOverrides, {
      scout: { model: 'fast-1', thinking: 'high', fallbackModels: ['a', 'b'] },
      worker: { disabled: true },
    });
    write(join(cwd, 'settings.json'), { subagents: { intercomBridge: { mode: 'none' } } });
    assert.equal(load().subagents.intercomBridge, 'off');
    write(join(cwd, 'settings.json'), { subagents: { intercomBridge: { mode: 'sometimes' } } });
    assert.ok(load().warnings.some((w) => w.includes('subagents.intercomBridge.mode must be always, fork-only or off')));
  });

  test('subagents{maxSubagentDepth, parallel{concurrency, maxTasks}} from a file; the variable overrides the depth', () => {
    write(join(configDir, 'settings.json'), { subagents: { maxSubagentDepth: 3, parallel: { concurrency: 2, maxTasks: 8 } } });
    assert.deepEqual(load().subagents, { ...defaults, maxDepth: 3, parallelConcurrency: 2, parallelMaxTasks: 8 });
    assert.equal(load([], { CATALYST_CODE_SUBAGENT_MAX_DEPTH: '0' }).subagents.maxDepth, 0);
    assert.equal(load([], { CATALYST_CODE_SUBAGENT_MAX_DEPTH: ' 5 ' }).subagents.maxDepth, 5);
  });

  test("a repository's settings cannot widen the fan-out: depth and parallel limits come from the user's files only", () => {
    write(join(cwd, 'settings.json'), {
      subagents: { maxSubagentDepth: 50, parallel: { concurrency: 64, maxTasks: 256 }, intercomBridge: { mode: 'off' } },
    });
    const c = load();
    assert.deepEqual(c.subagents, { ...defaults, intercomBridge: 'off' });
    assert.equal(c.warnings.length, 1);
    assert.match(c.warnings[0], /ignored security-sensitive keys subagents\.maxSubagentDepth, subagents\.parallel from project file/);
  });

  test('bad values warn and keep the default', () => {
    write(join(configDir, 'settings.json'), { subagents: { maxSubagentDepth: -1, parallel: { concurrency: 0, maxTasks: 'x' } } });
    const c = load([], { CATALYST_CODE_SUBAGENT_MAX_DEPTH: 'two' });
    assert.deepEqual(c.subagents, defaults);
    assert.equal(c.warnings.filter((w) => w.includes('subagents.') || w.includes('CATALYST_CODE_SUBAGENT_MAX_DEPTH')).length, 4);
  });
});

describe('resolveApiKey', () => {
  test('runtime key > seeded provider_keys > config api_key > api_key_env; empty values are skipped', () => {
    write(join(configDir, 'config.json'), {
      providers: [{ name: 'p', base_url: 'http://p', api_key: 'from-config', api_key_env: 'P_KEY' }],
      provider_keys: { p: 'from-provider-keys' },
    });
    const c = load();
    const p = c.providers[0];
    const env = { P_KEY: 'from-env' };
    assert.equal(resolveApiKey(p, c, env, { p: 'from-runtime' }), 'from-runtime');
    assert.equal(resolveApiKey(p, c, env, { p: '' }), 'from-provider-keys');
    c.providerKeys = {};
    assert.equal(resolveApiKey(p, c, env, {}), 'from-config');
    assert.equal(resolveApiKey({ ...p, apiKey: undefined }, c, env, {}), 'from-env');
    assert.equal(resolveApiKey({ ...p, apiKey: undefined }, c, { P_KEY: ' ' }, {}), undefined);
    assert.equal(resolveApiKey({ ...p, apiKey: undefined, apiKeyEnv: undefined }, c, env, {}), undefined);
  });

  test('the default provider reads UMANS_API_KEY; provider names never hit Object.prototype', () => {
    const c = load();
    assert.equal(resolveApiKey(c.providers[0], c, { UMANS_API_KEY: 'u' }, {}), 'u');
    const odd = { ...c.providers[0], name: 'constructor', apiKeyEnv: undefined };
    assert.equal(resolveApiKey(odd, c, {}, {}), undefined);
  });
});

describe('loadConfig project_rules', () => {
  const enabled = (c: CoreConfig) => [...c.projectRules.enabled].sort();

  test("the user's files set sources and caps; a project file only turns sources off and lowers caps; the variable turns off", () => {
    write(join(configDir, 'settings.json'), { project_rules: { claude_md: false, max_file_bytes: 4096 } });
    write(join(cwd, 'settings.json'), { project_rules: { claude_md: true, cursorrules: false, max_file_bytes: 99_999 } });
    const c = load([], { CATALYST_CODE_RULES_OFF: 'clinerules' });
    assert.deepEqual(enabled(c), ['agents_md', 'copilot_instructions', 'copilot_path_instructions', 'cursor_project_rules']);
    assert.equal(c.projectRules.maxFileBytes, 4096);
    assert.deepEqual(
      c.warnings.filter((w) => w.includes('project_rules')),
      [
        `${join(cwd, 'settings.json')}: a project file may only turn rules sources off or lower their caps; ignored project_rules.claude_md, project_rules.max_file_bytes`,
      ],
    );
    assert.deepEqual(enabled(load([], { CATALYST_CODE_RULES_OFF: 'all' })), []);
  });
});
