/** Reads and validates a plugin's `plugin.json` as upstream's loader does (`load_plugin_from_dir`), with its error texts. */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolKind } from '../tools/types';
import { validateCapabilities } from './capabilities';
import { loadOauthConfig } from './oauthManifest';
import { confinedPromptFile, confinedScript } from './pluginPaths';
import {
  HOOK_POINTS,
  type HookConfig,
  type HookPoint,
  type Plugin,
  type PluginCommandConfig,
  type PluginScope,
  type PluginToolConfig,
} from './types';

export const DEFAULT_PRE_TIMEOUT_MS = 5_000;
export const DEFAULT_POST_TIMEOUT_MS = 30_000;

const RESERVED_COMMAND_NAMES: ReadonlySet<string> = new Set(
  (
    'help new abort login logout models plugin-install plugin-list plugin-enable plugin-disable plugin-remove plugin-reload ' +
    'plugin-config stats sessions clear reset undo compact memory remember forget reflect index goal cancel-goal run parallel ' +
    'chain subagents vision context usage skill'
  ).split(' '),
);

type Json = Record<string, unknown>;

/** Throws an Error with upstream's message when the plugin in `dir` cannot load. */
export function loadPluginFromDir(dir: string, scope: PluginScope, warn: (message: string) => void): Plugin {
  let raw: string;
  try {
    raw = readFileSync(join(dir, 'plugin.json'), 'utf8');
  } catch (err) {
    throw new Error(`cannot read plugin.json: ${(err as Error).message}`);
  }
  const manifest = parseManifest(raw);
  const name = manifest.name as string;
  validatePluginName(name);
  const capabilities = validateCapabilities(manifest);
  const canonDir = realpathSync(dir);
  return {
    name,
    version: manifest.version as string,
    description: typeof manifest.description === 'string' ? manifest.description : '',
    capabilities,
    dir: canonDir,
    entry: dir,
    scope,
    enabled: true,
    hooks: loadHooks(manifest, canonDir, warn),
    tools: loadTools(manifest, canonDir, name),
    commands: loadCommands(manifest, canonDir, name),
    disableTools: stringList(manifest.disable_tools),
    ...(typeof manifest.system_prompt === 'string' && manifest.system_prompt.trim() ? { systemPrompt: manifest.system_prompt } : {}),
    hasOauth: isObject(manifest.oauth),
    ...(isObject(manifest.oauth) ? { oauth: loadOauthConfig(manifest.oauth, canonDir, name) } : {}),
    hasMemoryProvider: isObject(manifest.memory_provider),
  };
}

function parseManifest(raw: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new Error(`plugin.json parse error: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new Error('plugin.json parse error: expected a JSON object');
  for (const field of ['name', 'version']) {
    if (value[field] === undefined) throw new Error(`plugin.json parse error: missing field \`${field}\``);
    if (typeof value[field] !== 'string') throw new Error(`plugin.json parse error: \`${field}\` must be a string`);
  }
  return value;
}

export function validatePluginName(name: string): void {
  if (!name) throw new Error('plugin name is empty');
  if (name === '.' || name === '..' || name.includes('/') || name.includes('\\')) {
    throw new Error(`plugin name contains a path separator: ${JSON.stringify(name)}`);
  }
}

function loadHooks(manifest: Json, canonDir: string, warn: (message: string) => void): Map<HookPoint, HookConfig> {
  const hooks = new Map<HookPoint, HookConfig>();
  const declared = isObject(manifest.hooks) ? manifest.hooks : {};
  for (const [point, entry] of Object.entries(declared)) {
    if (!(HOOK_POINTS as readonly string[]).includes(point)) {
      warn(`unknown hook point '${point}' in plugin '${manifest.name}'; skipping`);
      continue;
    }
    const e = isObject(entry) ? entry : {};
    const script = confinedScript(canonDir, typeof e.script === 'string' ? e.script : '', 'hook script');
    hooks.set(point as HookPoint, {
      script,
      timeoutMs: positiveInt(e.timeout_ms) ?? (point.startsWith('pre_') ? DEFAULT_PRE_TIMEOUT_MS : DEFAULT_POST_TIMEOUT_MS),
      passArgs: e.pass_args === true,
    });
  }
  return hooks;
}

function loadTools(manifest: Json, canonDir: string, plugin: string): PluginToolConfig[] {
  return objectList(manifest.tools).map((t) => {
    const name = typeof t.name === 'string' ? t.name : '';
    if (!name) throw new Error('plugin declares a tool with an empty name');
    const script = confinedScript(canonDir, typeof t.script === 'string' ? t.script : '', 'script');
    const kindText = t.kind === undefined || t.kind === null ? 'destructive' : String(t.kind);
    if (kindText !== 'readonly' && kindText !== 'destructive') {
      throw new Error(`tool '${name}' has invalid kind '${kindText}' (use 'readonly' or 'destructive')`);
    }
    return {
      name,
      description: typeof t.description === 'string' ? t.description : '',
      parameters: isObject(t.parameters) ? t.parameters : { type: 'object', properties: {} },
      script,
      kind: kindText as ToolKind,
      timeoutMs: positiveInt(t.timeout_ms) ?? DEFAULT_POST_TIMEOUT_MS,
      override: t.override === true,
      plugin,
    };
  });
}

function loadCommands(manifest: Json, canonDir: string, plugin: string): PluginCommandConfig[] {
  const out: PluginCommandConfig[] = [];
  for (const c of objectList(manifest.commands)) {
    const trimmed = typeof c.name === 'string' ? c.name.trim() : '';
    const name = trimmed.startsWith('/') ? trimmed.slice(1) : trimmed;
    if (!name) continue;
    if (RESERVED_COMMAND_NAMES.has(name)) throw new Error(`command '${name}' collides with a reserved builtin slash command`);
    const script = typeof c.script === 'string' ? c.script.trim() : '';
    const promptFile = typeof c.prompt_file === 'string' ? c.prompt_file.trim() : '';
    const mode = commandMode(name, !!script, !!promptFile, typeof c.mode === 'string' ? c.mode : undefined);
    out.push({
      name,
      description: typeof c.description === 'string' ? c.description : '',
      mode,
      ...(mode === 'script'
        ? { script: confinedScript(canonDir, script, 'script') }
        : { promptFile: confinedPromptFile(canonDir, promptFile) }),
      timeoutMs: positiveInt(c.timeout_ms) ?? DEFAULT_POST_TIMEOUT_MS,
      plugin,
    });
  }
  return out;
}

function commandMode(name: string, hasScript: boolean, hasPrompt: boolean, mode: string | undefined): PluginCommandConfig['mode'] {
  if (hasScript && hasPrompt) throw new Error(`command '${name}' declares both \`script\` and \`prompt_file\`; use exactly one`);
  if (!hasScript && !hasPrompt) throw new Error(`command '${name}' declares neither \`script\` nor \`prompt_file\`; set one`);
  if (hasScript && mode !== undefined && mode !== 'script') {
    throw new Error(`command '${name}' has \`script\` but mode="${mode}" (expected "script")`);
  }
  if (hasPrompt && mode !== undefined && mode !== 'agent_turn') {
    throw new Error(`command '${name}' has \`prompt_file\` but mode="${mode}" (expected "agent_turn")`);
  }
  return hasScript ? 'script' : 'agent_turn';
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectList(v: unknown): Json[] {
  return Array.isArray(v) ? v.map((item) => (isObject(item) ? item : {})) : [];
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined;
}
