/**
 * Marketplace skills on disk: the consent file, the lock files that say which skills the marketplace manages, and the
 * staged install that only replaces a skill's folder once every file is written (research A:620-650).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { safeRelativePath, validateSnapshot, type Snapshot } from './marketplaceSnapshot';

/** Upstream's two scopes: `project` (also spelled `workspace`) and `global` (also `user`). */
export type MarketplaceScope = 'project' | 'global';

export function parseScope(value: unknown): MarketplaceScope {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (v === 'project' || v === 'workspace') return 'project';
  if (v === 'global' || v === 'user') return 'global';
  throw new Error("skill scope must be 'project' or 'global'");
}

export interface MarketplacePaths {
  workspace: string;
  homeDir: string;
  /** ~/.config/catalyst-code */
  configDir: string;
}

export interface LockEntry {
  source: string;
  sourceType: string;
  skillPath?: string;
  computedHash: string;
}

interface LockFile {
  version: number;
  skills: Record<string, LockEntry>;
}

export interface InstalledSkill {
  name: string;
  source: string;
  scope: MarketplaceScope;
  hash: string;
  location: string;
}

export const DISCLAIMER_REQUIRED = 'skill explorer disclaimer must be accepted before browsing or managing marketplace skills';

function consentPath(paths: MarketplacePaths): string {
  return join(paths.configDir, 'skill-explorer.json');
}

export function disclaimerAccepted(paths: MarketplacePaths): boolean {
  try {
    return JSON.parse(readFileSync(consentPath(paths), 'utf8'))?.disclaimer_accepted === true;
  } catch {
    return false;
  }
}

export function requireDisclaimer(paths: MarketplacePaths): void {
  if (!disclaimerAccepted(paths)) throw new Error(DISCLAIMER_REQUIRED);
}

/** Mode 0600, as every file under ~/.config/catalyst-code. */
export function acceptDisclaimer(paths: MarketplacePaths): void {
  writeFileAtomicSync(consentPath(paths), JSON.stringify({ disclaimer_accepted: true }, null, 2));
}

export function skillsDir(paths: MarketplacePaths, scope: MarketplaceScope): string {
  return join(scope === 'project' ? paths.workspace : paths.homeDir, '.catalyst-code', 'skills');
}

/** Project: `<ws>/skills-lock.json`; global: `~/.catalyst-code/skills-lock.json` (upstream's places). */
function lockPath(paths: MarketplacePaths, scope: MarketplaceScope): string {
  return scope === 'project' ? join(paths.workspace, 'skills-lock.json') : join(paths.homeDir, '.catalyst-code', 'skills-lock.json');
}

function readLock(path: string): LockFile {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    const skills: Record<string, LockEntry> = {};
    if (parsed && typeof parsed.skills === 'object' && parsed.skills !== null) {
      for (const [name, e] of Object.entries(parsed.skills as Record<string, any>)) {
        if (e && typeof e.source === 'string' && typeof e.computedHash === 'string') {
          skills[name] = {
            source: e.source,
            sourceType: String(e.sourceType ?? 'github'),
            skillPath: e.skillPath,
            computedHash: e.computedHash,
          };
        }
      }
    }
    return { version: typeof parsed?.version === 'number' ? parsed.version : 1, skills };
  } catch {
    return { version: 1, skills: {} };
  }
}

function writeLock(path: string, lock: LockFile): void {
  const sorted = Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileAtomicSync(path, JSON.stringify({ version: lock.version, skills: sorted }, null, 2) + '\n', { newFileMode: 0o644 });
}

export function lockEntry(paths: MarketplacePaths, scope: MarketplaceScope, name: string): LockEntry | undefined {
  const skills = readLock(lockPath(paths, scope)).skills;
  return Object.hasOwn(skills, name) ? skills[name] : undefined;
}

/** Every lock-managed skill of both scopes, by name. */
export function installedSkills(paths: MarketplacePaths): InstalledSkill[] {
  const out: InstalledSkill[] = [];
  for (const scope of ['project', 'global'] as const) {
    for (const [name, entry] of Object.entries(readLock(lockPath(paths, scope)).skills)) {
      out.push({ name, source: entry.source, scope, hash: entry.computedHash, location: join(skillsDir(paths, scope), name) });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Validates the snapshot before anything is written, writes it into a staging folder beside the target, then swaps it in
 * (the old folder kept as a backup until the lock file is written); any failure leaves the previous state. Only a
 * folder the lock file says the marketplace installed is ever replaced.
 */
export function installSnapshot(
  paths: MarketplacePaths,
  source: string,
  name: string,
  scope: MarketplaceScope,
  snapshot: Snapshot,
): LockEntry {
  validateSnapshot(snapshot);
  const base = skillsDir(paths, scope);
  // Upstream replaces whatever folder is there; one the marketplace did not install is the user's own work.
  if (existsSync(join(base, name)) && !lockEntry(paths, scope, name)) {
    throw new Error(`a skill folder '${name}' the marketplace did not install already exists in ${scope} scope; rename or remove it first`);
  }
  mkdirSync(base, { recursive: true });
  const stage = join(base, `.${name}-install-${process.pid}`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage);
  try {
    for (const file of snapshot.files) {
      const target = join(stage, safeRelativePath(file.path));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.contents, { flag: 'wx' });
    }
  } catch (err) {
    rmSync(stage, { recursive: true, force: true });
    throw new Error(`failed to stage skill: ${(err as Error).message}`);
  }
  const dest = join(base, name);
  const backup = join(base, `.${name}-backup-${process.pid}`);
  rmSync(backup, { recursive: true, force: true });
  if (existsSync(dest)) renameSync(dest, backup);
  try {
    renameSync(stage, dest);
  } catch (err) {
    if (existsSync(backup)) renameSync(backup, dest);
    rmSync(stage, { recursive: true, force: true });
    throw new Error(`failed to install ${dest}: ${(err as Error).message}`);
  }
  const entry: LockEntry = { source, sourceType: 'github', skillPath: 'SKILL.md', computedHash: snapshot.hash };
  const path = lockPath(paths, scope);
  const lock = readLock(path);
  lock.skills[name] = entry;
  try {
    writeLock(path, lock);
  } catch (err) {
    rmSync(dest, { recursive: true, force: true });
    if (existsSync(backup)) renameSync(backup, dest);
    throw err;
  }
  rmSync(backup, { recursive: true, force: true });
  return entry;
}

/** Only a skill the marketplace installed (one in the scope's lock file) can be removed this way. */
export function removeSkill(paths: MarketplacePaths, name: string, scope: MarketplaceScope): void {
  const path = lockPath(paths, scope);
  const lock = readLock(path);
  if (!Object.hasOwn(lock.skills, name)) throw new Error(`skill '${name}' is not managed in ${scope} scope`);
  delete lock.skills[name];
  rmSync(join(skillsDir(paths, scope), name), { recursive: true, force: true });
  writeLock(path, lock);
}
