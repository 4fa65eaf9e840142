// Reading the checkpoint events of any core (ours, upstream's catcode-core): every field may be missing or mistyped,
// so each parser returns undefined (or drops the entry) instead of throwing.
import type { CheckpointFileChange as WireFileChange, CheckpointInfo, EventOf } from '../../protocol';
import { type Untrusted, arr, num, record, str, strings } from '../state/eventFields';

export type CheckpointChangeStatus = 'modified' | 'added' | 'deleted';

/** One checkpoint as the extension shows it. */
export interface CheckpointEntry {
  id: string;
  /** The core's label ('auto-before-destructive', 'manual', or the user's). */
  label: string;
  /** Unix milliseconds; from `created_at` (seconds or milliseconds), else from the id (`cp-<unix secs>-<hex>`). */
  createdAt?: number;
  /** 'git' or 'files'. */
  kind?: string;
  auto: boolean;
  /** The run whose automatic checkpoint this is. */
  runId?: string;
  /** What it covers (empty: the whole workspace). */
  paths: string[];
  /** Files left out for exceeding the size limit. */
  skipped: string[];
  maxFileBytes?: number;
}

/** How the working tree differs from a checkpoint, for one workspace-relative path. */
export interface CheckpointFileChange {
  path: string;
  /** 'added': exists now, not in the checkpoint (a restore removes it); 'deleted': gone now (a restore recreates it). */
  status: CheckpointChangeStatus;
}

export interface CheckpointChanges {
  id: string;
  files: CheckpointFileChange[];
}

export interface CheckpointRestored {
  id: string;
  /** Absent from cores that do not report them (upstream). */
  restored?: string[];
  removed?: string[];
}

export interface CheckpointFileContent {
  id: string;
  path: string;
  exists: boolean;
  content?: string;
  binary: boolean;
  tooLarge: boolean;
}

const STATUSES: readonly CheckpointChangeStatus[] = ['modified', 'added', 'deleted'];
const MAX_ID = 200;

/** A checkpoint id we are willing to send back to the core: a short printable string. */
export function isCheckpointId(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_ID && !/[\u0000-\u001f]/.test(v);
}

/**
 * A workspace-relative path as the core names files: forward slashes, no leading `./`, nothing absolute, no `..`.
 * Undefined for anything else (a path from the core is data we do not trust to stay inside the folder).
 */
export function safeRelativePath(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '' || v.length > 4096 || v.includes('\u0000')) return undefined;
  const rel = v.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (rel === '' || rel.startsWith('/') || /^[a-zA-Z]:/.test(rel)) return undefined;
  const parts = rel.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return undefined;
  return rel;
}

/** Unix seconds or milliseconds (upstream's `created_at` is seconds; a value past 10^11 can only be milliseconds). */
export function timestampMs(v: unknown): number | undefined {
  const n = num(v);
  if (n === undefined || n <= 0) return undefined;
  return n > 1e11 ? Math.round(n) : Math.round(n * 1000);
}

/** `cp-<unix secs>-<hex>` → milliseconds. */
export function createdAtFromId(id: string): number | undefined {
  const m = /^cp-(\d{9,11})-/.exec(id);
  return m ? Number(m[1]) * 1000 : undefined;
}

/** A `CheckpointInfo` (an entry of `checkpoints`) or a `checkpoint_created` event. */
export function parseCheckpointEntry(f: Untrusted<CheckpointInfo> | Untrusted<EventOf<'checkpoint_created'>>): CheckpointEntry | undefined {
  const id = str(f.id);
  if (!isCheckpointId(id)) return undefined;
  const entry: CheckpointEntry = {
    id,
    label: str(f.label) ?? '',
    auto: f.auto === true,
    paths: strings(f.paths)
      .map(safeRelativePath)
      .filter((p): p is string => p !== undefined),
    skipped: strings(f.skipped)
      .map(safeRelativePath)
      .filter((p): p is string => p !== undefined),
  };
  const createdAt = timestampMs(f.created_at) ?? createdAtFromId(id);
  if (createdAt !== undefined) entry.createdAt = createdAt;
  const kind = str(f.kind);
  if (kind) entry.kind = kind;
  const runId = str(f.run_id);
  if (runId) entry.runId = runId;
  const max = num(f.max_file_bytes);
  if (max !== undefined && max > 0) entry.maxFileBytes = max;
  return entry;
}

/** `checkpoints{checkpoints}` → newest first (by time, then by the core's order: later in its list = newer). */
export function parseCheckpointList(e: Untrusted<EventOf<'checkpoints'>>): CheckpointEntry[] | undefined {
  const list = arr(e.checkpoints);
  if (!list) return undefined;
  const seen = new Set<string>();
  const entries: { entry: CheckpointEntry; index: number }[] = [];
  list.forEach((raw, index) => {
    const f = record<CheckpointInfo>(raw);
    const entry = f && parseCheckpointEntry(f);
    if (!entry || seen.has(entry.id)) return;
    seen.add(entry.id);
    entries.push({ entry, index });
  });
  return entries.sort((a, b) => (b.entry.createdAt ?? 0) - (a.entry.createdAt ?? 0) || b.index - a.index).map((x) => x.entry);
}

export function parseCheckpointRestored(e: Untrusted<EventOf<'checkpoint_restored'>>): CheckpointRestored | undefined {
  const id = str(e.id);
  if (!isCheckpointId(id)) return undefined;
  const out: CheckpointRestored = { id };
  if (Array.isArray(e.restored)) out.restored = strings(e.restored);
  if (Array.isArray(e.removed)) out.removed = strings(e.removed);
  return out;
}

export function parseCheckpointDeleted(e: Untrusted<EventOf<'checkpoint_deleted'>>): string | undefined {
  const id = str(e.id);
  return isCheckpointId(id) ? id : undefined;
}

/** `checkpoint_changes{id, files}`: unsafe paths and unknown statuses are dropped; sorted by path. */
export function parseCheckpointChanges(e: Untrusted<EventOf<'checkpoint_changes'>>): CheckpointChanges | undefined {
  const id = str(e.id);
  if (!isCheckpointId(id) || !Array.isArray(e.files)) return undefined;
  const byPath = new Map<string, CheckpointFileChange>();
  for (const raw of e.files) {
    const f = record<WireFileChange>(raw);
    const path = f && safeRelativePath(f.path);
    const status = f && str(f.status);
    if (!path || !status || !(STATUSES as readonly string[]).includes(status)) continue;
    byPath.set(path, { path, status: status as CheckpointChangeStatus });
  }
  return { id, files: [...byPath.values()].sort((a, b) => comparePaths(a.path, b.path)) };
}

export function parseCheckpointFile(e: Untrusted<EventOf<'checkpoint_file'>>): CheckpointFileContent | undefined {
  const id = str(e.id);
  const path = safeRelativePath(e.path);
  if (!isCheckpointId(id) || !path) return undefined;
  const out: CheckpointFileContent = { id, path, exists: e.exists === true, binary: e.binary === true, tooLarge: e.too_large === true };
  const content = str(e.content);
  if (content !== undefined) out.content = content;
  return out;
}

export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
