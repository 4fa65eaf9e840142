import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_OAUTH_LOGIN_TIMEOUT_MS, DEFAULT_OAUTH_TOKEN_TIMEOUT_MS, loadOauthConfig } from './oauthManifest';

function pluginDir(...scripts: string[]): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'oauth-manifest-')));
  for (const s of scripts) {
    writeFileSync(join(dir, s), '#!/bin/sh\n');
    chmodSync(join(dir, s), 0o755);
  }
  return dir;
}

test('an oauth block gets upstream defaults: label = provider_id, kind openai, <id>.json, the shared script for every action', () => {
  const dir = pluginDir('oauth.sh');
  const cfg = loadOauthConfig({ provider_id: 'lab', base_url: 'https://api.lab.test/v1/', script: 'oauth.sh' }, dir, 'p');
  assert.deepEqual(cfg, {
    providerId: 'lab',
    label: 'lab',
    kind: 'openai',
    baseUrl: 'https://api.lab.test/v1',
    description: '',
    headers: [],
    tokenPath: 'lab.json',
    scripts: { login: join(dir, 'oauth.sh'), complete: join(dir, 'oauth.sh'), token: join(dir, 'oauth.sh'), clear: join(dir, 'oauth.sh') },
    loginTimeoutMs: DEFAULT_OAUTH_LOGIN_TIMEOUT_MS,
    tokenTimeoutMs: DEFAULT_OAUTH_TOKEN_TIMEOUT_MS,
    envPassthrough: [],
    plugin: 'p',
  });
});

test('per-action scripts override the shared one; a token-only plugin cannot log in', () => {
  const dir = pluginDir('login.sh', 'token.sh');
  const cfg = loadOauthConfig({ provider_id: 'x', base_url: 'https://x', login_script: 'login.sh', token_script: 'token.sh' }, dir, 'p');
  assert.equal(cfg.scripts.login, join(dir, 'login.sh'));
  assert.equal(cfg.scripts.token, join(dir, 'token.sh'));
  assert.equal(cfg.scripts.complete, undefined);
  const tokenOnly = loadOauthConfig({ provider_id: 'x', base_url: 'https://x', token_script: 'token.sh' }, dir, 'p');
  assert.equal(tokenOnly.scripts.login, undefined);
});

test('bad oauth blocks are refused with a reason', () => {
  const dir = pluginDir('oauth.sh');
  const base = { provider_id: 'lab', base_url: 'https://x', script: 'oauth.sh' };
  const refused = (block: Record<string, unknown>) => {
    try {
      loadOauthConfig(block, dir, 'p');
    } catch (err) {
      return (err as Error).message;
    }
    return 'loaded';
  };
  assert.equal(refused({ ...base, provider_id: '' }), 'oauth.provider_id is required');
  assert.equal(refused({ ...base, base_url: undefined }), "oauth provider 'lab' needs a base_url");
  assert.equal(refused({ ...base, kind: 'gemini' }), "oauth provider 'lab' has invalid kind 'gemini' (use 'openai' or 'anthropic')");
  assert.equal(
    refused({ provider_id: 'lab', base_url: 'https://x' }),
    "oauth provider 'lab' needs a token script (set oauth.script or oauth.token_script)",
  );
  for (const tokenPath of ['../t.json', 'sub/t.json', '/abs/t.json', '..']) {
    assert.equal(refused({ ...base, token_path: tokenPath }), 'token_path must be one relative filename', tokenPath);
  }
  assert.equal(refused({ ...base, script: '../escape.sh' }), 'script "../escape.sh" escapes the plugin directory');
  assert.match(refused({ ...base, env_passthrough: ['LAB_API_KEY'] }), /looks like a secret/);
  for (const name of ['MY_TOKEN', 'db_password', 'CLIENT_SECRET', 'AWS_CREDENTIALS']) {
    assert.match(refused({ ...base, env_passthrough: [name] }), /looks like a secret/, name);
  }
  assert.match(refused({ ...base, env_passthrough: ['1BAD'] }), /not a valid variable name/);
  assert.deepEqual(loadOauthConfig({ ...base, env_passthrough: ['LAB_REGION'], token_path: 'lab-tokens.json' }, dir, 'p').envPassthrough, [
    'LAB_REGION',
  ]);
});
