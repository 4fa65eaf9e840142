// Reducers for the core's plugin events into `state.plugins` (docs/plans/issue-17-plugins.md §2). plugins_list and
// plugin_commands replace their lists; install/remove/enable/disable patch the list until the next plugins_list; the trust
// prompt keeps its entries so the host can ask about the undecided ones; errors and status lines become notices.
import type { PluginCommandInfo, PluginInfo, PluginTrustEntry } from '../../protocol';
import {
  emptyPluginsView,
  type PluginCommandView,
  type PluginScope,
  type PluginsView,
  type PluginTrustChoice,
  type PluginTrustEntryView,
  type PluginView,
} from '../../shared/pluginState';
import type { SessionState } from '../../shared/sessionState';
import { type Untrusted, type UntrustedEvent, bool, records, str, strings } from './eventFields';
import { addNotice } from './reduceNotices';

/** More than any real set; a list longer than this is no list a tree or a completion popup can show. */
const MAX_ENTRIES = 500;
const TEXT_MAX = 1000;

export function reducePluginsList(s: SessionState, e: UntrustedEvent<'plugins_list'>): SessionState {
  const list = records<PluginInfo>(e.plugins)
    .map(pluginView)
    .filter((p): p is PluginView => p !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MAX_ENTRIES);
  return withPlugins(s, { list, loaded: list.map((p) => p.name) });
}

export function reducePluginCommands(s: SessionState, e: UntrustedEvent<'plugin_commands'>): SessionState {
  const commands = records<PluginCommandInfo>(e.commands)
    .map(commandView)
    .filter((c): c is PluginCommandView => c !== undefined)
    .slice(0, MAX_ENTRIES);
  return withPlugins(s, { commands });
}

export function reducePluginTrustPrompt(s: SessionState, e: UntrustedEvent<'plugin_trust_prompt'>): SessionState {
  const trust = records<PluginTrustEntry>(e.plugins)
    .map(trustEntryView)
    .filter((t): t is PluginTrustEntryView => t !== undefined)
    .slice(0, MAX_ENTRIES);
  return withPlugins(s, { trust });
}

/** The decisions as the core applied them (keys as sent: our UI sends paths), then a notice of what changed. */
export function reducePluginTrustApplied(s: SessionState, e: UntrustedEvent<'plugin_trust_applied'>): SessionState {
  const trusted = strings(e.trusted);
  const denied = strings(e.denied);
  const decided = (t: PluginTrustEntryView): PluginTrustChoice =>
    trusted.includes(t.path) || trusted.includes(t.name)
      ? 'trust'
      : denied.includes(t.path) || denied.includes(t.name)
        ? 'deny'
        : t.decision;
  const prev = s.plugins ?? emptyPluginsView();
  const trust = prev.trust.map((t) => ({ ...t, decision: decided(t) }));
  const names = (keys: string[]) => keys.map((k) => prev.trust.find((t) => t.path === k)?.name ?? k).join(', ');
  const parts = [trusted.length ? `trusted ${names(trusted)}` : '', denied.length ? `denied ${names(denied)}` : ''].filter(Boolean);
  const next = withPlugins(s, { trust, skipped: prev.skipped.filter((n) => !trust.some((t) => t.name === n && t.decision !== '')) });
  return parts.length ? addNotice(next, { level: 'info', text: `Plugins: ${parts.join('; ')}.`, code: 'plugin_trust' }) : next;
}

/** ready's plugins (names) and plugins_skipped (the project plugins waiting for a decision). */
export function reducePluginsOnReady(s: SessionState, e: UntrustedEvent<'ready'>): SessionState {
  if (e.plugins === undefined && e.plugins_skipped === undefined && s.plugins === undefined) return s;
  return withPlugins(s, {
    loaded: strings(e.plugins).slice(0, MAX_ENTRIES),
    skipped: strings(e.plugins_skipped).slice(0, MAX_ENTRIES),
  });
}

export function reducePluginInstalled(s: SessionState, e: UntrustedEvent<'plugin_installed'>): SessionState {
  const name = nonEmpty(e.name);
  if (!name) return s;
  const plugin: PluginView = {
    name,
    version: text(e.version),
    description: text(e.description),
    enabled: true,
    scope: scopeOf(e.scope),
    path: text(e.path),
    hooks: strings(e.hooks),
    tools: [],
    commands: [],
  };
  const list = [...(s.plugins?.list ?? []).filter((p) => p.name !== name), plugin].sort((a, b) => a.name.localeCompare(b.name));
  return addNotice(withPlugins(s, { list }), { level: 'info', text: `Plugin ${name} ${plugin.version} installed (${plugin.scope}).` });
}

export function reducePluginRemoved(s: SessionState, e: UntrustedEvent<'plugin_removed'>): SessionState {
  const name = nonEmpty(e.name);
  if (!name) return s;
  const list = (s.plugins?.list ?? []).filter((p) => p.name !== name);
  const commands = (s.plugins?.commands ?? []).filter((c) => c.plugin !== name);
  return addNotice(withPlugins(s, { list, commands }), { level: 'info', text: `Plugin ${name} removed.` });
}

export function reducePluginEnabled(s: SessionState, e: UntrustedEvent<'plugin_enabled'>): SessionState {
  return withEnabled(s, nonEmpty(e.name), true);
}

export function reducePluginDisabled(s: SessionState, e: UntrustedEvent<'plugin_disabled'>): SessionState {
  return withEnabled(s, nonEmpty(e.name), false);
}

export function reducePluginError(s: SessionState, e: UntrustedEvent<'plugin_error'>): SessionState {
  const message = nonEmpty(e.message);
  if (!message) return s;
  const name = nonEmpty(e.name);
  return addNotice(s, { level: 'error', text: name ? `Plugin ${name}: ${message}` : message, code: 'plugin_error' });
}

export function reducePluginStatus(s: SessionState, e: UntrustedEvent<'plugin_status'>): SessionState {
  const message = nonEmpty(e.text);
  if (!message) return s;
  const plugin = nonEmpty(e.plugin);
  return addNotice(s, { level: 'info', text: plugin ? `[${plugin}] ${message}` : message, code: 'plugin_status' });
}

function withEnabled(s: SessionState, name: string | undefined, enabled: boolean): SessionState {
  const list = s.plugins?.list ?? [];
  if (!name || !list.some((p) => p.name === name && p.enabled !== enabled)) return s;
  return withPlugins(s, { list: list.map((p) => (p.name === name ? { ...p, enabled } : p)) });
}

function withPlugins(s: SessionState, change: Partial<PluginsView>): SessionState {
  const prev = s.plugins ?? emptyPluginsView();
  const next = { ...prev, ...change };
  if (s.plugins && JSON.stringify(prev) === JSON.stringify(next)) return s;
  return { ...s, plugins: next };
}

function pluginView(p: Untrusted<PluginInfo>): PluginView | undefined {
  const name = nonEmpty(p.name);
  if (!name) return undefined;
  return {
    name,
    version: text(p.version),
    description: text(p.description),
    enabled: bool(p.enabled) ?? true,
    scope: scopeOf(p.scope),
    path: text(p.path),
    hooks: strings(p.hooks),
    tools: strings(p.tools),
    commands: strings(p.commands),
  };
}

function commandView(c: Untrusted<PluginCommandInfo>): PluginCommandView | undefined {
  const name = nonEmpty(c.name)?.replace(/^\//, '');
  if (!name || /\s/.test(name)) return undefined;
  return { name, description: text(c.description), plugin: text(c.plugin), mode: str(c.mode) === 'agent_turn' ? 'agent_turn' : 'script' };
}

function trustEntryView(t: Untrusted<PluginTrustEntry>): PluginTrustEntryView | undefined {
  const path = nonEmpty(t.path);
  const name = nonEmpty(t.name);
  if (!path || !name) return undefined;
  const decision = str(t.decision);
  return {
    name,
    version: text(t.version),
    description: text(t.description),
    path,
    decision: decision === 'trust' || decision === 'deny' ? decision : '',
  };
}

function scopeOf(v: unknown): PluginScope {
  return str(v) === 'workspace' ? 'workspace' : 'global';
}

function nonEmpty(v: unknown): string | undefined {
  const s = str(v)?.trim();
  return s ? s.slice(0, TEXT_MAX) : undefined;
}

function text(v: unknown): string {
  return (str(v) ?? '').slice(0, TEXT_MAX);
}
