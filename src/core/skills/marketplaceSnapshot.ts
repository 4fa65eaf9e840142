/** What the marketplace index sends back, and what makes a download safe to write (upstream's skill_marketplace.rs rules). */
import { isAbsolute, normalize } from 'node:path';

export const MAX_SNAPSHOT_FILES = 1000;
export const MAX_SNAPSHOT_BYTES = 25 * 1024 * 1024;

export interface MarketplaceSkill {
  id: string;
  skillId: string;
  name: string;
  installs: number;
  source: string;
}

export interface SnapshotFile {
  path: string;
  contents: string;
}

export interface Snapshot {
  files: SnapshotFile[];
  hash: string;
}

/** A skill's name as a folder name: 1–128 of [A-Za-z0-9_-]. */
export function validName(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(name);
}

/** A GitHub `owner/repo`: two parts of 1–100 of [A-Za-z0-9._-], neither `.` nor `..` (it goes into the download URL's path). */
export function validSource(source: unknown): source is string {
  if (typeof source !== 'string') return false;
  const parts = source.split('/');
  return parts.length === 2 && parts.every((p) => /^[A-Za-z0-9._-]{1,100}$/.test(p) && p !== '.' && p !== '..');
}

export function validateIdentity(source: unknown, name: unknown): void {
  if (!validSource(source)) throw new Error('skill source must be a GitHub owner/repository identifier');
  validateName(name);
}

export function validateName(name: unknown): asserts name is string {
  if (!validName(name)) throw new Error('skill name contains unsupported characters');
}

/** Search results the client may act on: a valid source and name, most installs first, then by name. */
export function searchResults(body: unknown): MarketplaceSkill[] {
  const raw = isObject(body) && Array.isArray(body.skills) ? body.skills : undefined;
  if (!raw) throw new Error('invalid skills.sh search response: missing field `skills`');
  const skills: MarketplaceSkill[] = [];
  for (const item of raw) {
    if (!isObject(item) || !validSource(item.source) || !validName(item.name)) continue;
    const installs = typeof item.installs === 'number' && Number.isFinite(item.installs) && item.installs >= 0 ? item.installs : 0;
    skills.push({
      id: typeof item.id === 'string' ? item.id : `${item.source}/${item.name}`,
      skillId: typeof item.skillId === 'string' ? item.skillId : '',
      name: item.name,
      installs,
      source: item.source,
    });
  }
  return skills.sort((a, b) => b.installs - a.installs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The download's shape, or the error upstream gives for a malformed one. */
export function parseSnapshot(body: unknown): Snapshot {
  if (!isObject(body) || !Array.isArray(body.files) || typeof body.hash !== 'string') {
    throw new Error('invalid skills.sh download response: expected {files:[{path, contents}], hash}');
  }
  const files = body.files.map((f: unknown) => {
    if (!isObject(f) || typeof f.path !== 'string' || typeof f.contents !== 'string') {
      throw new Error('invalid skills.sh download response: every file needs a string path and contents');
    }
    return { path: f.path, contents: f.contents };
  });
  return { files, hash: body.hash };
}

/** 1–1000 files, at most 25 MiB, every path safe, a root SKILL.md that opens with frontmatter, and a content hash. */
export function validateSnapshot(snapshot: Snapshot): void {
  if (snapshot.files.length === 0 || snapshot.files.length > MAX_SNAPSHOT_FILES) {
    throw new Error(`skill snapshot has an invalid file count (max ${MAX_SNAPSHOT_FILES})`);
  }
  const bytes = snapshot.files.reduce((sum, f) => sum + Buffer.byteLength(f.contents, 'utf8'), 0);
  if (bytes > MAX_SNAPSHOT_BYTES) throw new Error(`skill snapshot exceeds ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MiB`);
  const seen = new Set<string>();
  let skillFile: SnapshotFile | undefined;
  for (const file of snapshot.files) {
    const path = safeRelativePath(file.path);
    if (seen.has(path.toLowerCase())) throw new Error(`skill snapshot repeats a path: ${file.path}`);
    seen.add(path.toLowerCase());
    if (path === 'SKILL.md') skillFile = file;
  }
  if (!skillFile) throw new Error('skill snapshot does not contain a root SKILL.md');
  if (!skillFile.contents.startsWith('---')) throw new Error('downloaded SKILL.md has no YAML frontmatter');
  if (!snapshot.hash.trim()) throw new Error('skill snapshot has no content hash');
}

/**
 * A relative path of plain segments only: no absolute path, drive, backslash, `.`/`..` or empty segment, no NUL. (A
 * repeated path, which upstream lets overwrite, is refused above: two files claiming one name is no honest snapshot.)
 */
export function safeRelativePath(value: string): string {
  const segments = value.split('/');
  const unsafe =
    value === '' ||
    isAbsolute(value) ||
    value.includes('\\') ||
    value.includes('\0') ||
    /^[A-Za-z]:/.test(value) ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (unsafe || normalize(value) !== value) throw new Error(`unsafe skill path: ${value}`);
  return value;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
