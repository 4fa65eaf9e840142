import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { catalystUserMcpConfigPath, loadMcpConfig, type LoadMcpConfigOptions } from './loadMcpConfig';
import type { McpServerConfig } from '../serverConfig';

describe('loadMcpConfig', () => {
  let root: string;
  let ws: string;
  let home: string;
  const write = (abs: string, text: string): string => {
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    return abs;
  };
  const opts = (over: Partial<LoadMcpConfigOptions> = {}): LoadMcpConfigOptions => ({
    workspaceFolder: ws,
    vscodeUserConfigPath: path.join(home, 'Code', 'User', 'mcp.json'),
    catalystUserConfigPath: catalystUserMcpConfigPath(path.join(home, '.config', 'catalyst-code')),
    env: { PATH: '/usr/bin', TOKEN: 'tok-123' },
    inputs: {},
    userHome: home,
    ...over,
  });
  const byName = (servers: McpServerConfig[], name: string): McpServerConfig => {
    const s = servers.find((x) => x.name === name);
    assert.ok(s, `server ${name} in ${servers.map((x) => x.name).join(', ')}`);
    return s;
  };

  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catalyst-mcp-config-')));
    ws = path.join(root, 'ws');
    home = path.join(root, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('no file at all: no servers, no problems', () => {
    assert.deepEqual(loadMcpConfig(opts({ vscodeUserConfigPath: undefined })), { servers: [], needInputs: [], problems: [] });
  });

  test('.vscode/mcp.json: JSONC, the three transports, variables, defaults, workspace trust', () => {
    const file = write(
      path.join(ws, '.vscode', 'mcp.json'),
      `{
        // comments and trailing commas, as VS Code accepts
        "servers": {
          "fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-filesystem", "\${workspaceFolder}/src", 3],
                  "env": { "HOME_DIR": "\${userHome}", "TOKEN": "\${env:TOKEN}", "UNSET": "\${env:NOPE}", "N": 5 }, },
          "web": { "type": "http", "url": "https://example.test/mcp", "headers": { "X-Base": "\${workspaceFolderBasename}" } },
          "old": { "type": "sse", "url": "http://127.0.0.1:3001/sse" },
          "implicit": { "command": "node", "args": ["s.js"], "cwd": "tools" },
          "implicitHttp": { "url": "http://127.0.0.1:1/mcp" },
        },
      }`,
    );
    const { servers, problems, needInputs } = loadMcpConfig(opts());
    assert.deepEqual(problems, []);
    assert.deepEqual(needInputs, []);
    assert.deepEqual(
      servers.map((s) => s.name),
      ['fs', 'web', 'old', 'implicit', 'implicitHttp'],
    );
    const fsServer = byName(servers, 'fs');
    assert.equal(fsServer.source, 'vscode-workspace');
    assert.equal(fsServer.file, file);
    assert.equal(fsServer.needsTrust, true);
    assert.match(fsServer.trustNonce, /^[0-9a-f]{32}$/);
    assert.equal(fsServer.startupTimeoutMs, 30_000);
    assert.equal(fsServer.callTimeoutMs, 60_000);
    assert.deepEqual(fsServer.unsupported, []);
    assert.deepEqual(fsServer.transport, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-filesystem', `${ws}/src`, '3'],
      env: { HOME_DIR: home, TOKEN: 'tok-123', UNSET: '', N: '5' },
      cwd: ws,
    });
    assert.deepEqual(byName(servers, 'web').transport, { type: 'http', url: 'https://example.test/mcp', headers: { 'X-Base': 'ws' } });
    assert.deepEqual(byName(servers, 'old').transport, { type: 'sse', url: 'http://127.0.0.1:3001/sse', headers: {} });
    const implicit = byName(servers, 'implicit').transport;
    assert.equal(implicit.type, 'stdio');
    assert.equal(implicit.type === 'stdio' && implicit.cwd, path.join(ws, 'tools'));
    assert.equal(byName(servers, 'implicitHttp').transport.type, 'http');
  });

  test('a "mcpServers" key inside .vscode/mcp.json is read, as VS Code migrates it; "servers" wins a clash in the file', () => {
    write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { a: { command: 'a-new' } }, mcpServers: { a: { command: 'a-old' }, b: { command: 'b' } } }),
    );
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => [s.name, s.transport.type === 'stdio' && s.transport.command]),
      [
        ['a', 'a-new'],
        ['b', 'b'],
      ],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /"a" is defined under both "servers" and "mcpServers"/);
  });

  test('${input:id}: a missing value is requested once for every server that waits, a given one is substituted', () => {
    write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: [
          { type: 'promptString', id: 'api-key', description: 'GitHub token', password: true },
          { type: 'promptString', id: 'region', description: 'Region' },
          { type: 'pickString', id: 'mode', description: 'Mode', options: ['fast', 'safe'] },
        ],
        servers: {
          gh: { type: 'http', url: 'https://api.example.test/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } },
          svc: { command: 'svc', args: ['--region', '${input:region}', '--mode', '${input:mode}'], env: { KEY: '${input:api-key}' } },
          plain: { command: 'plain' },
        },
      }),
    );
    const first = loadMcpConfig(opts());
    assert.deepEqual(first.problems, []);
    assert.deepEqual(first.needInputs, [
      { id: 'api-key', description: 'GitHub token', password: true, servers: ['gh', 'svc'] },
      { id: 'region', description: 'Region', password: false, servers: ['svc'] },
      { id: 'mode', description: 'Mode (one of: fast, safe)', password: false, servers: ['svc'] },
    ]);
    const gh = byName(first.servers, 'gh');
    assert.deepEqual(gh.transport.type === 'http' && gh.transport.headers, { Authorization: 'Bearer ${input:api-key}' });

    const second = loadMcpConfig(opts({ inputs: { 'api-key': 's3cret', region: 'eu', mode: 'safe' } }));
    assert.deepEqual(second.needInputs, []);
    const svc = byName(second.servers, 'svc').transport;
    assert.deepEqual(svc.type === 'stdio' && [svc.args, svc.env], [['--region', 'eu', '--mode', 'safe'], { KEY: 's3cret' }]);
    // The nonce hashes the definition as written: an input's value changes nothing.
    assert.equal(byName(second.servers, 'gh').trustNonce, gh.trustNonce);
  });

  test('an ${input:id} nobody declares is asked as a secret and reported', () => {
    write(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { s: { command: 'x', args: ['${input:who}'] } } }));
    const { needInputs, problems } = loadMcpConfig(opts());
    assert.deepEqual(needInputs, [{ id: 'who', description: 'who', password: true, servers: ['s'] }]);
    assert.match(problems[0].message, /\$\{input:who\}, which no "inputs" entry declares/);
  });

  test(".mcp.json: Claude's ${VAR} and ${VAR:-default}; an unset ${VAR} stays literal, $VAR never expands", () => {
    write(
      path.join(ws, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          claude: {
            command: '${TOOL_BIN:-npx}',
            args: ['${TOKEN}', '${MISSING}', '$TOKEN', '${EMPTY:-fallback}', '${env:TOKEN}'],
            env: { K: '${TOKEN}' },
          },
          remote: { type: 'http', url: '${BASE:-http://127.0.0.1:9}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      }),
    );
    const { servers, problems } = loadMcpConfig(opts({ env: { TOKEN: 'tok', EMPTY: '' } }));
    assert.deepEqual(problems, []);
    const claude = byName(servers, 'claude');
    assert.equal(claude.source, 'mcp-json');
    assert.equal(claude.needsTrust, true);
    assert.deepEqual(claude.transport, {
      type: 'stdio',
      command: 'npx',
      args: ['tok', '${MISSING}', '$TOKEN', 'fallback', '${env:TOKEN}'],
      env: { K: 'tok' },
      cwd: ws,
    });
    assert.deepEqual(byName(servers, 'remote').transport, {
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer tok' },
    });
  });

  test('.mcp.json written with VS Code\'s "servers" key is read, with a note', () => {
    write(path.join(ws, '.mcp.json'), JSON.stringify({ servers: { s: { command: 'x' } } }));
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => s.name),
      ['s'],
    );
    assert.match(problems[0].message, /Claude Code reads only "mcpServers"/);
  });

  test('.cursor/mcp.json: mcpServers with envFile; env wins over envFile, null removes a variable', () => {
    write(path.join(ws, '.env.mcp'), '# comment\nexport A=from-file\nB="two words\\n"\nC=\'lit ${x}\'\nD=drop # trailing comment\n');
    write(
      path.join(ws, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { cur: { command: 'cur', envFile: '${workspaceFolder}/.env.mcp', env: { A: 'from-env', D: null } } } }),
    );
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(problems, []);
    const cur = byName(servers, 'cur');
    assert.equal(cur.source, 'cursor');
    assert.equal(cur.needsTrust, true);
    assert.deepEqual(cur.transport.type === 'stdio' && cur.transport.env, { A: 'from-env', B: 'two words\n', C: 'lit ${x}' });
  });

  test('user-level files (VS Code profile, ours) are trusted; ours is next to config.json', () => {
    const ours = catalystUserMcpConfigPath(path.join(home, '.config', 'catalyst-code'));
    assert.equal(ours, path.join(home, '.config', 'catalyst-code', 'mcp.json'));
    write(ours, JSON.stringify({ servers: { mine: { command: 'mine' } } }));
    write(
      path.join(home, 'Code', 'User', 'mcp.json'),
      JSON.stringify({ servers: { vs: { command: 'vs', args: ['${workspaceFolder}'] } } }),
    );
    const { servers } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => [s.name, s.source, s.needsTrust]),
      [
        ['vs', 'vscode-user', false],
        ['mine', 'catalyst-user', false],
      ],
    );
    const vs = byName(servers, 'vs').transport;
    assert.deepEqual(vs.type === 'stdio' && vs.args, [ws]);
    assert.deepEqual(
      loadMcpConfig(opts({ vscodeUserConfigPath: undefined })).servers.map((s) => s.name),
      ['mine'],
    );
  });

  test('name clash: user-level beats workspace (ours first), earlier workspace file beats later; the loser is reported', () => {
    write(path.join(home, '.config', 'catalyst-code', 'mcp.json'), JSON.stringify({ servers: { gh: { command: 'ours' } } }));
    write(
      path.join(home, 'Code', 'User', 'mcp.json'),
      JSON.stringify({ servers: { gh: { command: 'vscode-user' }, db: { command: 'vu' } } }),
    );
    const vscodeWs = write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { gh: { command: 'repo' }, lint: { command: 'vw' } } }),
    );
    const dotMcp = write(
      path.join(ws, '.mcp.json'),
      JSON.stringify({ mcpServers: { lint: { command: 'claude' }, db: { command: 'claude' } } }),
    );
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => [s.name, s.transport.type === 'stdio' && s.transport.command]),
      [
        ['db', 'vu'],
        ['lint', 'vw'],
        ['gh', 'ours'],
      ],
    );
    const lost = problems.map((p) => [path.basename(p.file), /server "(\w+)" is also defined/.exec(p.message)?.[1]]);
    assert.deepEqual(
      lost.sort(),
      [
        ['mcp.json', 'gh'],
        ['mcp.json', 'gh'],
        [path.basename(dotMcp), 'db'],
        [path.basename(dotMcp), 'lint'],
      ].sort(),
    );
    assert.ok(problems.some((p) => p.file === vscodeWs));
  });

  test('unsupported keys and variables are listed per server, never dropped silently; gallery metadata is not', () => {
    write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({
        servers: {
          s: {
            command: 'x',
            args: ['${command:pick}', '${config:foo}'],
            dev: { watch: '**/*.ts' },
            sandboxEnabled: true,
            sandbox: { network: {} },
            url: 'http://ignored',
            gallery: 'https://api.mcp.github.com',
            version: '1.0.0',
          },
          h: { type: 'http', url: 'https://h.test/mcp', oauth: { clientId: 'x' }, command: 'nope' },
        },
      }),
    );
    const { servers } = loadMcpConfig(opts());
    assert.deepEqual(byName(servers, 's').unsupported, ['dev', 'sandbox', 'sandboxEnabled', 'url', '${command:pick}', '${config:foo}']);
    assert.deepEqual(byName(servers, 'h').unsupported, ['command', 'oauth']);
  });

  test('per-server timeouts; a bad one falls back with a problem', () => {
    write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { s: { command: 'x', startupTimeoutMs: 90_000, callTimeoutMs: -1 } } }),
    );
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual([servers[0].startupTimeoutMs, servers[0].callTimeoutMs], [90_000, 60_000]);
    assert.match(problems[0].message, /"callTimeoutMs" must be a positive number/);
  });

  test('a malformed file is a problem with its position; the file is untouched and the other files still load', () => {
    const text = '{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n}';
    const bad = write(path.join(ws, '.vscode', 'mcp.json'), text);
    write(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { ok: { command: 'ok' } } }));
    write(path.join(ws, '.cursor', 'mcp.json'), '[1, 2]');
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => s.name),
      ['ok'],
    );
    assert.equal(problems[0].file, bad);
    assert.match(problems[0].message, /is not valid JSON: CommaExpected at line 4, column 5; its servers are not loaded/);
    assert.match(problems[1].message, /does not hold a JSON object/);
    assert.equal(fs.readFileSync(bad, 'utf8'), text);
  });

  test('an unreadable file (here a directory) is a problem, not a crash', () => {
    fs.mkdirSync(path.join(ws, '.mcp.json'));
    const { problems } = loadMcpConfig(opts());
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /\.mcp\.json cannot be read \(EISDIR\); its servers are not loaded/);
  });

  test('entries that cannot run are problems naming the server; the rest load', () => {
    write(
      path.join(ws, '.vscode', 'mcp.json'),
      JSON.stringify({
        inputs: 'nope',
        extra: 1,
        servers: {
          none: {},
          weird: { type: 'websocket', url: 'ws://x' },
          badArgs: { command: 'x', args: 'not-a-list' },
          badUrl: { type: 'http', url: 'not a url' },
          fileUrl: { url: 'file:///etc/passwd' },
          noEnvFile: { command: 'x', envFile: 'missing.env' },
          str: 'x',
          good: { command: 'good' },
        },
      }),
    );
    const { servers, problems } = loadMcpConfig(opts());
    assert.deepEqual(
      servers.map((s) => s.name),
      ['good'],
    );
    const messages = problems.map((p) => p.message).join('\n');
    for (const expected of [
      /"inputs" must be an array/,
      /top-level key "extra" is not supported/,
      /server "none": has neither "command" nor "url"; not loaded/,
      /server "weird": has an unknown "type" "websocket"/,
      /server "badArgs": "args" must be an array of strings/,
      /server "badUrl": "url" "not a url" is not a URL/,
      /server "fileUrl": "url" must be http or https/,
      /server "noEnvFile": envFile .*missing\.env cannot be read \(ENOENT\)/,
      /server "str" is not an object/,
    ])
      assert.match(messages, expected);
  });

  test('trust nonce: stable across key order, changes with command, url, env or envFile content', () => {
    const nonceOf = (servers: object, envText?: string): string => {
      if (envText !== undefined) write(path.join(ws, 'e.env'), envText);
      write(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
      return loadMcpConfig(opts()).servers[0].trustNonce;
    };
    const base = nonceOf({ s: { command: 'x', args: ['a'], env: { A: '1' } } });
    assert.equal(nonceOf({ s: { env: { A: '1' }, args: ['a'], command: 'x' } }), base);
    assert.notEqual(nonceOf({ s: { command: 'y', args: ['a'], env: { A: '1' } } }), base);
    assert.notEqual(nonceOf({ s: { command: 'x', args: ['b'], env: { A: '1' } } }), base);
    assert.notEqual(nonceOf({ s: { command: 'x', args: ['a'], env: { A: '2' } } }), base);
    const withFile = nonceOf({ s: { command: 'x', envFile: 'e.env' } }, 'A=1');
    assert.notEqual(nonceOf({ s: { command: 'x', envFile: 'e.env' } }, 'A=1\nNODE_OPTIONS=--require ./evil.js'), withFile);
    const url = nonceOf({ s: { url: 'https://a.test/mcp' } });
    assert.notEqual(nonceOf({ s: { url: 'https://b.test/mcp' } }), url);
  });
});
