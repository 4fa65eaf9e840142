/**
 * The `project_rules` settings: which sources are read and the size caps. Layered like the rest of the config, with one
 * rule for a repository's own settings file (./settings.json, untrusted): it may turn a source off or lower a cap, never
 * turn a source back on or raise a cap — a repository cannot put its rules in front of a user who turned them off.
 */
import { isJsonObject, uintValue, type JsonObject } from '../platform/jsonValue';
import { RULE_SOURCES, isRuleSource, type RuleSource } from './ruleSources';

export interface ProjectRulesSettings {
  /** Sources read (all of RULE_SOURCES unless turned off). */
  enabled: ReadonlySet<RuleSource>;
  /** Bytes of one file that reach the prompt; the rest is cut with a marker. */
  maxFileBytes: number;
  /** Bytes of all files together; files past it are left out with a marker. */
  maxTotalBytes: number;
}

export const DEFAULT_MAX_FILE_BYTES = 16_384;
export const DEFAULT_MAX_TOTAL_BYTES = 49_152;

export function defaultProjectRulesSettings(): ProjectRulesSettings {
  return { enabled: new Set(RULE_SOURCES), maxFileBytes: DEFAULT_MAX_FILE_BYTES, maxTotalBytes: DEFAULT_MAX_TOTAL_BYTES };
}

/**
 * One config file's `project_rules` object: `enabled` (all sources), one boolean per source (`agents_md`, …),
 * `max_file_bytes`, `max_total_bytes`. `trusted` is false for the workspace's own settings files.
 */
export function applyProjectRulesLayer(
  current: ProjectRulesSettings,
  value: unknown,
  trusted: boolean,
  warn: (msg: string) => void,
): ProjectRulesSettings {
  if (value === undefined) return current;
  if (!isJsonObject(value)) {
    warn('project_rules must be an object; ignored');
    return current;
  }
  const enabled = new Set(current.enabled);
  const refused: string[] = [];
  for (const [key, on] of switches(value, warn)) {
    const sources = key === 'enabled' ? RULE_SOURCES : [key];
    if (!on) for (const s of sources) enabled.delete(s);
    else if (trusted) for (const s of sources) enabled.add(s);
    else refused.push(`project_rules.${key}`);
  }
  const maxFileBytes = cap(value, 'max_file_bytes', current.maxFileBytes, trusted, refused, warn);
  const maxTotalBytes = cap(value, 'max_total_bytes', current.maxTotalBytes, trusted, refused, warn);
  if (refused.length > 0) {
    warn(`a project file may only turn rules sources off or lower their caps; ignored ${refused.join(', ')}`);
  }
  return { enabled, maxFileBytes, maxTotalBytes };
}

/** `CATALYST_CODE_RULES_OFF`: `all`, or a comma-separated list of sources to turn off (the extension's settings). */
export function applyRulesOffVariable(
  current: ProjectRulesSettings,
  raw: string | undefined,
  warn: (msg: string) => void,
): ProjectRulesSettings {
  if (raw === undefined || !raw.trim()) return current;
  const enabled = new Set(current.enabled);
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (item === 'all') enabled.clear();
    else if (isRuleSource(item)) enabled.delete(item);
    else warn(`CATALYST_CODE_RULES_OFF: unknown rules source '${item}'; ignored`);
  }
  return { ...current, enabled };
}

function* switches(value: JsonObject, warn: (msg: string) => void): Generator<[RuleSource | 'enabled', boolean]> {
  for (const key of ['enabled', ...RULE_SOURCES] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v === 'boolean') yield [key, v];
    else warn(`project_rules.${key} must be true or false; ignored`);
  }
}

function cap(value: JsonObject, key: string, current: number, trusted: boolean, refused: string[], warn: (msg: string) => void): number {
  if (value[key] === undefined) return current;
  const n = uintValue(value[key]);
  if (n === undefined || n === 0) {
    warn(`project_rules.${key} must be a positive integer; ignored`);
    return current;
  }
  if (trusted || n <= current) return n;
  refused.push(`project_rules.${key}`);
  return current;
}
