/**
 * The plugins of one core: upstream's scan of the global (`~/.catalyst-code/plugins`) and workspace
 * (`<ws>/.catalyst-code/plugins`, or the `plugins.dir` setting) folders, the trust gate for workspace plugins, and install,
 * remove, enable, disable.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { DEFAULT_WORKSPACE_PLUGINS_DIR } from '../config/pluginSettings';
import { loadPluginFromDir, validatePluginName } from './manifest';
import { PluginTrustStore } from './trustStore';
import type { Plugin, PluginLoadError, PluginScope, SkippedPlugin, TrustDecision } from './types';

export interface PluginManagerOptions {
  homeDir: string;
  configDir: string;
  /** Canonical workspace root. */
  workspace: string;
  /** --trust-project-plugins / CATALYST_CODE_TRUST_PROJECT_PLUGINS (never project config). */
  trustProject: boolean;
  /** `plugins.dir`: the workspace plugins folder, relative to the workspace (default `.catalyst-code/plugins`). */
  workspacePluginsDir?: string;
  /** `plugins.disabled`: names the first scan loads disabled. */
  disabledAtStart?: readonly string[];
  log(message: string): void;
}

/** Left out of a local install's copy (upstream's `copy_dir`): build output, caches, VCS data and secrets. */
const COPY_SKIPPED: ReadonlySet<string> = new Set([
  '.git',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.runtime',
  'node_modules',
  '.DS_Store',
  '.tox',
  'dist',
  'build',
  '.eggs',
]);

export class PluginManager {
  private plugins = new Map<string, Plugin>();
  private skipped: SkippedPlugin[] = [];
  private readonly trust: PluginTrustStore;
  private decisions: Map<string, TrustDecision>;
  /** Consumed by the first scan; later scans keep the flags the commands set. */
  private startDisabled: ReadonlySet<string> | undefined;
  readonly globalDir: string;
  readonly workspaceDir: string;

  constructor(private readonly opts: PluginManagerOptions) {
    this.globalDir = join(opts.homeDir, '.catalyst-code', 'plugins');
    this.workspaceDir = resolve(opts.workspace, opts.workspacePluginsDir ?? DEFAULT_WORKSPACE_PLUGINS_DIR);
    this.startDisabled = new Set(opts.disabledAtStart ?? []);
    this.trust = new PluginTrustStore(opts.configDir, opts.workspace);
    this.decisions = this.trust.decisions();
  }

  /** Rescans both folders, keeping the disabled flags of the plugins still there; returns the load errors. */
  scan(): PluginLoadError[] {
    const disabled = this.startDisabled ?? new Set([...this.plugins.values()].filter((p) => !p.enabled).map((p) => p.name));
    this.startDisabled = undefined;
    const errors: PluginLoadError[] = [];
    const loaded = new Map<string, Plugin>();
    const skipped: SkippedPlugin[] = [];
    const installed = this.trust.installed();
    for (const [dir, scope] of [
      [this.globalDir, 'global'],
      [this.workspaceDir, 'workspace'],
    ] as const) {
      for (const entry of pluginEntries(dir)) {
        const gate = scope === 'workspace' ? this.gate(entry, installed) : undefined;
        if (gate) {
          skipped.push(gate);
          continue;
        }
        try {
          const plugin = loadPluginFromDir(entry, scope, (m) => this.opts.log(`[plugins] ${m}`));
          plugin.enabled = !disabled.has(plugin.name);
          loaded.set(plugin.name, plugin);
        } catch (err) {
          const message = `failed to load plugin in ${JSON.stringify(basename(entry))}: ${(err as Error).message}`;
          this.opts.log(`[plugins] ${message}`);
          const manifest = readManifestLoosely(entry);
          const name = typeof manifest.name === 'string' && manifest.name ? manifest.name : basename(entry);
          errors.push({ name, path: canonical(entry), message });
        }
      }
    }
    this.plugins = loaded;
    this.skipped = skipped;
    return errors;
  }

  /** A workspace plugin that may not load yet, or undefined when it may (research A:997-1004). */
  private gate(entry: string, installed: ReadonlySet<string>): SkippedPlugin | undefined {
    if (this.opts.trustProject) return undefined;
    const key = canonical(entry);
    if (installed.has(key) && key.startsWith(this.opts.workspace + sep)) return undefined;
    const decision = this.decisions.get(key);
    if (decision === 'trust') return undefined;
    const manifest = readManifestLoosely(entry);
    const name = typeof manifest.name === 'string' ? manifest.name : basename(entry);
    this.opts.log(
      `[plugins] skipping project-scoped plugin '${name}' (in ${JSON.stringify(key)}); trust it with the plugin trust prompt, set --trust-project-plugins / CATALYST_CODE_TRUST_PROJECT_PLUGINS=1, or reinstall it into the workspace`,
    );
    return {
      name,
      version: typeof manifest.version === 'string' ? manifest.version : '',
      description: typeof manifest.description === 'string' ? manifest.description : '',
      path: key,
      ...(decision ? { decision } : {}),
    };
  }

  /** Every loaded plugin, sorted by name. */
  list(): Plugin[] {
    return [...this.plugins.values()].sort((a, b) => compare(a.name, b.name));
  }

  enabled(): Plugin[] {
    return this.list().filter((p) => p.enabled);
  }

  get(name: string): Plugin | undefined {
    return this.plugins.get(name);
  }

  skippedPlugins(): readonly SkippedPlugin[] {
    return this.skipped;
  }

  /** Skipped, never decided, and not shadowed by a loaded global plugin of the same name: what `init` asks about. */
  pendingTrust(): SkippedPlugin[] {
    return this.skipped.filter((s) => s.decision === undefined && this.plugins.get(s.name)?.scope !== 'global');
  }

  /** `plugin_trust_prompt`'s entries: every skipped workspace plugin and every loaded one, with its decision. */
  trustEntries(): Array<{ name: string; version: string; description: string; path: string; decision: '' | TrustDecision }> {
    const entries = this.skipped.map((s) => ({ ...s, decision: s.decision ?? ('' as const) }));
    const known = new Set(entries.map((e) => e.path));
    for (const p of this.list()) {
      if (p.scope !== 'workspace' || known.has(p.dir)) continue;
      entries.push({
        name: p.name,
        version: p.version,
        description: p.description,
        path: p.dir,
        decision: this.decisions.get(p.dir) ?? '',
      });
    }
    return entries.sort((a, b) => compare(a.name, b.name) || compare(a.path, b.path));
  }

  /**
   * Records decisions keyed by plugin name, trust key (canonical path) or directory name; keys that name no workspace
   * plugin are ignored. Persists them (throws when the store cannot be written), then rescans; `failed` are the plugins
   * just trusted that did not load (a script without its x bit, a bad manifest), with why.
   */
  applyDecisions(decisions: ReadonlyArray<[string, TrustDecision]>): {
    trusted: string[];
    denied: string[];
    failed: PluginLoadError[];
  } {
    const entries = this.trustEntries();
    const keyed = new Map<string, TrustDecision>();
    const trusted: string[] = [];
    const denied: string[] = [];
    for (const [sent, decision] of decisions) {
      const key = entries.find((e) => e.name === sent || e.path === sent)?.path ?? this.workspaceEntryKey(sent);
      if (!key) continue;
      keyed.set(key, decision);
      (decision === 'trust' ? trusted : denied).push(sent);
    }
    if (keyed.size > 0) this.trust.recordDecisions(keyed);
    for (const [key, decision] of keyed) this.decisions.set(key, decision);
    const failed = this.scan().filter((e) => keyed.get(e.path) === 'trust');
    return { trusted, denied, failed };
  }

  private workspaceEntryKey(dirName: string): string | undefined {
    if (!dirName || dirName.includes('/') || dirName.includes('\\') || dirName === '.' || dirName === '..') return undefined;
    const entry = join(this.workspaceDir, dirName);
    return existsSync(join(entry, 'plugin.json')) ? canonical(entry) : undefined;
  }

  /** Copies a local plugin folder into the scope's plugins folder and loads it (upstream's `install`). */
  install(source: string, scope: PluginScope): Plugin {
    const trimmed = source.trim();
    if (!trimmed) throw new Error('plugin source is empty');
    const abs = isAbsolute(trimmed) ? trimmed : resolve(process.cwd(), trimmed);
    if (!isDirectory(abs) || !existsSync(join(abs, 'plugin.json'))) {
      if (looksLikeGitHubSource(trimmed)) {
        throw new Error(
          `this core cannot download plugins yet: '${trimmed}' looks like a GitHub source; download it and install it from its folder`,
        );
      }
      if (!isDirectory(abs)) throw new Error(`${JSON.stringify(trimmed)} is not a directory`);
      throw new Error(`no plugin.json found in ${JSON.stringify(trimmed)}`);
    }
    const checked = loadPluginFromDir(abs, scope, (m) => this.opts.log(`[plugins] ${m}`));
    if (this.plugins.has(checked.name)) {
      throw new Error(`plugin '${checked.name}' is already installed; remove it first or use a different name`);
    }
    validatePluginName(checked.name);
    const root = scope === 'global' ? this.globalDir : this.workspaceDir;
    mkdirSync(root, { recursive: true });
    const dest = join(root, checked.name);
    removeEntry(dest);
    cpSync(abs, dest, { recursive: true, verbatimSymlinks: true, filter: (src) => src === abs || !skippedInCopy(basename(src)) });
    if (scope === 'workspace') this.trust.recordInstalled(canonical(dest));
    const installed = loadPluginFromDir(dest, scope, (m) => this.opts.log(`[plugins] ${m}`));
    this.plugins.set(installed.name, installed);
    return installed;
  }

  /**
   * Deletes the plugin's folder and forgets it. Only the entry the scan found in one of the two plugins folders is
   * deleted, with lstat: a symlinked plugin loses its link, never the folder it points to.
   */
  remove(name: string): void {
    const plugin = this.plugins.get(name);
    if (!plugin) throw new Error(`plugin '${name}' not found`);
    const root = plugin.scope === 'global' ? this.globalDir : this.workspaceDir;
    if (canonical(dirname(plugin.entry)) !== canonical(root)) throw new Error(`plugin '${name}' is not in ${JSON.stringify(root)}`);
    removeEntry(plugin.entry);
    this.plugins.delete(name);
  }

  setEnabled(name: string, enabled: boolean): void {
    const plugin = this.plugins.get(name);
    if (!plugin) throw new Error(`plugin '${name}' not found`);
    plugin.enabled = enabled;
  }
}

function pluginEntries(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((n) => join(dir, n)).filter((p) => isDirectory(p) && existsSync(join(p, 'plugin.json')));
}

function readManifestLoosely(dir: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(join(dir, 'plugin.json'), 'utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function removeEntry(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) unlinkSync(path);
  else rmSync(path, { recursive: true, force: true });
}

function skippedInCopy(name: string): boolean {
  if (COPY_SKIPPED.has(name)) return true;
  return (name === '.env' || name.startsWith('.env.')) && name !== '.env.example';
}

/** owner/repo[@tag][:subdir], a github.com URL, or git@github.com:… (upstream's `parse_github_plugin_source`). */
function looksLikeGitHubSource(source: string): boolean {
  return (
    /^(https?:\/\/)?github\.com\//i.test(source) || source.startsWith('git@github.com:') || /^[\w.-]+\/[\w.-]+([@#:].*)?$/.test(source)
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
