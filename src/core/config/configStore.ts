// The core-owned ~/.config/catalyst-code/config.json: `login`, `add_custom_provider`
// and `set_search_key` persist here (research §3.3).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { withFileLockSync, type FileLockOptions } from '../platform/fileLock';
import { isJsonObject, type JsonObject } from '../platform/jsonValue';
import { providerToJson, type ProviderConfig } from './providers';

export class ConfigStore {
  readonly file: string;
  /** Not upstream's `config.lock` (an flock file that persists), so the two locking schemes never mistake each other's files. */
  readonly lockFile: string;

  constructor(
    readonly configDir: string,
    private readonly lockOptions: FileLockOptions = {},
  ) {
    this.file = join(configDir, 'config.json');
    this.lockFile = join(configDir, 'config.json.lock');
  }

  /** {} if the file is missing, unreadable or not a JSON object. */
  read(): Record<string, unknown> {
    return this.readParsed().value;
  }

  /**
   * Read-modify-write under the lock; the write is atomic (temp file + rename) with mode
   * 0600. A malformed existing file is kept as `config.json.malformed-<ms>` before being
   * replaced. If `mutate` throws, nothing is written.
   */
  update(mutate: (cfg: Record<string, unknown>) => void): void {
    mkdirSync(this.configDir, { recursive: true, mode: 0o700 });
    withFileLockSync(
      this.lockFile,
      () => {
        const { value, malformed } = this.readParsed();
        mutate(value);
        if (malformed) copyFileSync(this.file, `${this.file}.malformed-${Date.now()}`);
        writeFileAtomicSync(this.file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
      },
      this.lockOptions,
    );
  }

  private readParsed(): { value: JsonObject; malformed: boolean } {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return { value: {}, malformed: false };
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return isJsonObject(parsed) ? { value: parsed, malformed: false } : { value: {}, malformed: true };
    } catch {
      return { value: {}, malformed: true };
    }
  }
}

/** Adds or replaces (by name) the provider in `cfg.providers`, in snake_case; optionally makes it active. */
export function upsertProvider(cfg: Record<string, unknown>, p: ProviderConfig, makeActive: boolean): void {
  const list = Array.isArray(cfg.providers) ? cfg.providers : [];
  const json = providerToJson(p);
  const i = list.findIndex((e) => isJsonObject(e) && e.name === p.name);
  if (i >= 0) list[i] = json;
  else list.push(json);
  cfg.providers = list;
  if (makeActive) {
    cfg.activeProvider = p.name;
    // Within one file the snake_case key wins on load, so it must not contradict.
    delete cfg.active_provider;
  }
}

/** Removes every provider named `name`, and the active-provider setting if it named it. */
export function removeProvider(cfg: Record<string, unknown>, name: string): boolean {
  if (!Array.isArray(cfg.providers)) return false;
  const kept = cfg.providers.filter((e) => !(isJsonObject(e) && e.name === name));
  const removed = kept.length !== cfg.providers.length;
  cfg.providers = kept;
  if (cfg.activeProvider === name) delete cfg.activeProvider;
  if (cfg.active_provider === name) delete cfg.active_provider;
  return removed;
}
