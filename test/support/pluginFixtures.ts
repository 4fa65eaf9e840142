/** Test plugins: a folder with a plugin.json and small Node scripts (x bit set), the shape upstream's core loads. */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Each script reads its JSON stdin into `input`, then runs `body`; `answer(v)` prints v as JSON. */
export function script(body: string): string {
  return [
    '#!/usr/bin/env node',
    "let raw = '';",
    "process.stdin.on('data', (c) => (raw += c));",
    "process.stdin.on('end', () => {",
    '  const input = JSON.parse(raw);',
    '  const answer = (v) => process.stdout.write(JSON.stringify(v));',
    `  ${body}`,
    '});',
    '',
  ].join('\n');
}

export const ALLOW = script('answer({ allow: true });');

export interface PluginSpec {
  manifest: Record<string, unknown>;
  /** Relative path → content; written executable unless listed in `plain`. */
  files?: Record<string, string>;
  plain?: string[];
}

/** Writes the plugin into `<root>/<dirName>` and returns that folder. */
export function writePlugin(root: string, dirName: string, spec: PluginSpec): string {
  const dir = join(root, dirName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(spec.manifest, null, 2));
  for (const [rel, content] of Object.entries(spec.files ?? {})) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    chmodSync(abs, spec.plain?.includes(rel) ? 0o644 : 0o755);
  }
  return dir;
}

/** The global plugins folder of a test home (upstream's `~/.catalyst-code/plugins`). */
export const globalPluginsDir = (home: string): string => join(home, '.catalyst-code', 'plugins');

/** The workspace plugins folder (`<ws>/.catalyst-code/plugins`). */
export const workspacePluginsDir = (workspace: string): string => join(workspace, '.catalyst-code', 'plugins');

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/**
 * A plugin whose `oauth` block logs into provider `lab` (served by `baseUrl`) through the authorization server
 * stand-in at $OAUTH_STANDIN_URL (test/support/oauthServerStandIn.ts), implementing upstream's four actions: `login`
 * (web flow when given a redirect_uri, else manual), `complete` (code → tokens, written to token_path by the plugin),
 * `token` (refreshes when the token expires within 60 s) and `clear`. Each run appends its stdin (which holds no
 * secret) to `$HOME/oauth-inputs.jsonl`; each web or manual `login` appends what it answered (URL, state,
 * pending — no secret either) to `$HOME/oauth-login-answers.jsonl`. `device: true`: login starts a device-code grant instead, and complete polls
 * the token endpoint until the user approved it.
 */
export function oauthPlugin(baseUrl: string, opts: { device?: boolean } = {}): PluginSpec {
  return {
    manifest: {
      name: 'lab-oauth',
      version: '1.0.0',
      description: 'logs into Lab Cloud',
      oauth: {
        provider_id: 'lab',
        label: 'Lab Cloud',
        description: 'Lab Cloud subscription (OAuth)',
        base_url: baseUrl,
        headers: [['X-Lab-Client', 'catalyst']],
        script: 'oauth.js',
        env_passthrough: ['OAUTH_STANDIN_URL'],
      },
    },
    files: {
      'oauth.js': script(`
  const fs = require('fs');
  const path = require('path');
  fs.appendFileSync(path.join(process.env.HOME, 'oauth-inputs.jsonl'), JSON.stringify(input) + '\\n');
  const AUTH = process.env.OAUTH_STANDIN_URL;
  const post = async (p, body) => {
    const r = await fetch(AUTH + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { ok: r.ok, json: await r.json() };
  };
  const save = (t) => {
    fs.mkdirSync(path.dirname(input.token_path), { recursive: true });
    const expires_at = Math.floor(Date.now() / 1000) + t.expires_in;
    fs.writeFileSync(input.token_path, JSON.stringify({ access_token: t.access_token, refresh_token: t.refresh_token, expires_at }));
  };
  const load = () => JSON.parse(fs.readFileSync(input.token_path, 'utf8'));
  (async () => {
    if (input.action === 'login' && ${opts.device === true}) {
      const r = await post('/device', {});
      const d = r.json;
      return answer({ url: d.verification_uri, code: d.user_code, flow: 'device_code', pending: { device_code: d.device_code } });
    }
    if (input.action === 'complete' && input.pending && input.pending.device_code) {
      for (;;) {
        const r = await post('/token', { grant_type: 'device_code', device_code: input.pending.device_code });
        if (r.ok) { save(r.json); return answer({ ok: true }); }
        if (r.json.error !== 'authorization_pending') return answer({ ok: false, error: r.json.error });
        await new Promise((res) => setTimeout(res, 50)); // the device grant's poll interval
      }
    }
    if (input.action === 'login') {
      const state = 'st-' + Math.random().toString(36).slice(2);
      const reply = input.redirect_uri
        ? { url: AUTH + '/authorize?redirect_uri=' + encodeURIComponent(input.redirect_uri) + '&state=' + state, state, flow: 'web' }
        : { url: AUTH + '/authorize?mode=manual', flow: 'manual', state, pending: { state }, message: 'Open the URL, copy the code, paste it here.' };
      fs.appendFileSync(path.join(process.env.HOME, 'oauth-login-answers.jsonl'), JSON.stringify(reply) + '\\n');
      return answer(reply);
    }
    if (input.action === 'complete') {
      const r = await post('/token', { grant_type: 'authorization_code', code: input.code });
      if (!r.ok) return answer({ ok: false, error: 'the authorization server refused the code: ' + r.json.error });
      save(r.json);
      return answer({ ok: true });
    }
    if (input.action === 'token') {
      let t = load();
      if (t.expires_at - Date.now() / 1000 < 60) {
        const r = await post('/token', { grant_type: 'refresh_token', refresh_token: t.refresh_token });
        if (!r.ok) { process.stderr.write('refresh refused'); process.exit(3); }
        save(r.json);
        t = load();
      }
      return answer({ access_token: t.access_token, expires_at: t.expires_at, headers: [['X-Lab-Org', 'org-7']] });
    }
    await post('/revoke', { refresh_token: input.provider_id });
    answer({});
  })();`),
    },
  };
}
