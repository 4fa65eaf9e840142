/** `list_skills`, `apply_skill`, the `skills` event init sends too, and the marketplace commands (research A:584-650). */
import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import type { SessionEventOf } from '../runtime/eventSink';
import { scrubText } from '../runtime/redact';
import { findSkill, uniqueSkills } from '../skills/discovery';
import { downloadSkill, searchIndex, skillsIndexUrl } from '../skills/marketplaceIndex';
import { validateIdentity, validateName } from '../skills/marketplaceSnapshot';
import {
  acceptDisclaimer,
  disclaimerAccepted,
  installedSkills,
  installSnapshot,
  lockEntry,
  parseScope,
  removeSkill,
  requireDisclaimer,
  type MarketplacePaths,
  type MarketplaceScope,
} from '../skills/marketplaceStore';
import { applySkillPrompt } from '../skills/skillPrompts';
import { startOrQueue } from '../app/turns';

export function handleListSkills(rt: CoreRuntime): void {
  rt.emit(skillsEvent(rt));
}

/** Read from disk each time: the user (or the model, or the marketplace) may add a skill while the core runs. */
export function skillsEvent(rt: CoreRuntime): SessionEventOf<'skills'> {
  return {
    type: 'skills',
    skills: uniqueSkills(rt.skills()).map((s) => ({
      name: s.name,
      description: s.description,
      location: s.location,
      content: s.body,
    })),
  };
}

/** A normal turn (queued like `send`) whose prompt carries the whole skill; an unknown model or skill ends with `done`. */
export function handleApplySkill(rt: CoreRuntime, cmd: CommandOf<'apply_skill'>): void {
  if (typeof cmd.model !== 'string' || !cmd.model) {
    rt.emit({ type: 'error', code: 'invalid_command', message: 'model is required' });
    return;
  }
  const known = rt.providers.models();
  if (known.length > 0 && !known.some((m) => m.id === cmd.model)) return rejectTurn(rt, 'unknown_model', `unknown model: ${cmd.model}`);
  const name = typeof cmd.name === 'string' ? cmd.name.trim() : '';
  const skill = name ? findSkill(rt.skills(), name) : undefined;
  if (!skill) {
    return rejectTurn(rt, 'unknown_skill', `unknown skill '${name}' — use /skill:<name> with a name from the autocomplete`);
  }
  startOrQueue(rt, {
    prompt: applySkillPrompt(skill, typeof cmd.task === 'string' ? cmd.task : undefined),
    model: cmd.model,
    reasoning_effort: typeof cmd.reasoning_effort === 'string' && cmd.reasoning_effort ? cmd.reasoning_effort : 'medium',
  });
}

function rejectTurn(rt: CoreRuntime, code: string, message: string): void {
  rt.emit({ type: 'error', code, message });
  rt.emit({ type: 'done' });
}

// ── The marketplace (consent-gated; every failure is one `skill_marketplace_error`) ──

function marketplacePaths(rt: CoreRuntime): MarketplacePaths {
  return { workspace: rt.workspace, homeDir: rt.config.homeDir, configDir: rt.config.configDir };
}

function marketplaceState(rt: CoreRuntime): SessionEventOf<'skill_marketplace_state'> {
  const paths = marketplacePaths(rt);
  return { type: 'skill_marketplace_state', disclaimer_accepted: disclaimerAccepted(paths), installed: installedSkills(paths) };
}

/** Runs one marketplace command; its error (never a secret: the index takes no key) becomes the error event. */
async function marketplace(rt: CoreRuntime, run: (paths: MarketplacePaths, indexUrl: string) => Promise<void> | void): Promise<void> {
  try {
    await run(marketplacePaths(rt), skillsIndexUrl(rt.env));
  } catch (err) {
    rt.emit({ type: 'skill_marketplace_error', message: scrubText((err as Error).message, rt.secrets()) });
  }
}

export function handleListMarketplaceSkills(rt: CoreRuntime): Promise<void> {
  return marketplace(rt, () => rt.emit(marketplaceState(rt)));
}

export function handleAcceptSkillDisclaimer(rt: CoreRuntime): Promise<void> {
  return marketplace(rt, (paths) => {
    acceptDisclaimer(paths);
    rt.emit(marketplaceState(rt));
  });
}

export function handleSearchMarketplaceSkills(rt: CoreRuntime, cmd: CommandOf<'search_marketplace_skills'>): Promise<void> {
  return marketplace(rt, async (paths, indexUrl) => {
    requireDisclaimer(paths);
    const query = typeof cmd.query === 'string' ? cmd.query.trim() : '';
    if ([...query].length < 2) throw new Error('skill search requires at least 2 characters');
    rt.emit({ type: 'skill_marketplace_results', query, skills: await searchIndex(indexUrl, query) });
  });
}

export function handleInstallMarketplaceSkill(rt: CoreRuntime, cmd: CommandOf<'install_marketplace_skill'>): Promise<void> {
  return marketplace(rt, async (paths, indexUrl) => {
    requireDisclaimer(paths);
    validateIdentity(cmd.source, cmd.name);
    const scope = parseScope(cmd.scope);
    const snapshot = await downloadSkill(indexUrl, cmd.source, cmd.name);
    installSnapshot(paths, cmd.source, cmd.name, scope, snapshot);
    emitChanged(rt, 'installed', cmd.name, scope);
  });
}

export function handleUpdateMarketplaceSkill(rt: CoreRuntime, cmd: CommandOf<'update_marketplace_skill'>): Promise<void> {
  return marketplace(rt, async (paths, indexUrl) => {
    requireDisclaimer(paths);
    validateName(cmd.name);
    const scope = parseScope(cmd.scope);
    const existing = lockEntry(paths, scope, cmd.name);
    if (!existing) throw new Error(`skill '${cmd.name}' is not managed in ${scope} scope`);
    const snapshot = await downloadSkill(indexUrl, existing.source, cmd.name);
    if (snapshot.hash === existing.computedHash) return emitChanged(rt, 'unchanged', cmd.name, scope);
    installSnapshot(paths, existing.source, cmd.name, scope, snapshot);
    emitChanged(rt, 'updated', cmd.name, scope);
  });
}

export function handleRemoveMarketplaceSkill(rt: CoreRuntime, cmd: CommandOf<'remove_marketplace_skill'>): Promise<void> {
  return marketplace(rt, (paths) => {
    requireDisclaimer(paths);
    validateName(cmd.name);
    const scope = parseScope(cmd.scope);
    removeSkill(paths, cmd.name, scope);
    emitChanged(rt, 'removed', cmd.name, scope);
  });
}

/** The change, then the skills as they now are (the manifest follows from disk on the next request). */
function emitChanged(rt: CoreRuntime, action: string, name: string, scope: MarketplaceScope): void {
  rt.emit({ type: 'skill_marketplace_changed', action, name, scope });
  rt.emit(skillsEvent(rt));
}
