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
