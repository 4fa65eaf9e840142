import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointRecord } from './types';

type IndexLine = CheckpointRecord | { id: string; deleted: true };

/** Upstream wrote `created_at` in seconds; anything below this is taken as seconds. */
const MIN_PLAUSIBLE_MILLIS = 100_000_000_000;

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** Accepts our records and upstream's (null shas and dir, created_at in seconds). */
function normalizeRecord(raw: Record<string, unknown>): CheckpointRecord | undefined {
  if (typeof raw.id !== 'string' || (raw.kind !== 'git' && raw.kind !== 'files')) return undefined;
  const createdAt = typeof raw.created_at === 'number' ? raw.created_at : 0;
  const record: CheckpointRecord = {
    id: raw.id,
    label: stringOr(raw.label, ''),
    created_at: createdAt > 0 && createdAt < MIN_PLAUSIBLE_MILLIS ? createdAt * 1000 : createdAt,
    kind: raw.kind,
    head_sha: stringOr(raw.head_sha, ''),
    stash_sha: stringOr(raw.stash_sha, ''),
    paths: Array.isArray(raw.paths) ? raw.paths.filter((p): p is string => typeof p === 'string') : [],
    dir: stringOr(raw.dir, ''),
    auto: raw.auto === true,
  };
  if (typeof raw.run_id === 'string') record.run_id = raw.run_id;
  if (typeof raw.format === 'number') record.format = raw.format;
  if (raw.store === 'shadow') record.store = 'shadow';
  if (Array.isArray(raw.skipped)) record.skipped = raw.skipped.filter((p): p is string => typeof p === 'string');
  if (typeof raw.max_file_bytes === 'number') record.max_file_bytes = raw.max_file_bytes;
  if (typeof raw.tree === 'string') record.tree = raw.tree;
  return record;
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a truncated last line, or garbage: skipped
  }
}

function endsWithoutNewline(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    fs.closeSync(fd);
  }
}

/** The append-only JSONL list of checkpoints; a deletion is a later `{id, deleted:true}` line. */
export class CheckpointIndex {
  constructor(readonly filePath: string) {}

  append(line: IndexLine): void {
    fs.mkdirSync(path.dirname(this.filePath), { recursive: true });
    // After a crash mid-line, start on a fresh line so only the broken line is lost.
    const prefix = endsWithoutNewline(this.filePath) ? '\n' : '';
    fs.appendFileSync(this.filePath, prefix + JSON.stringify(line) + '\n');
  }

  /** Live records, oldest first. */
  records(): CheckpointRecord[] {
    let text: string;
    try {
      text = fs.readFileSync(this.filePath, 'utf8');
    } catch {
      return [];
    }
    const byId = new Map<string, CheckpointRecord>();
    for (const line of text.split('\n')) {
      const raw = line.trim() ? parseLine(line) : undefined;
      if (!raw || typeof raw.id !== 'string') continue;
      if (raw.deleted === true) {
        byId.delete(raw.id);
        continue;
      }
      const record = normalizeRecord(raw);
      if (record) byId.set(record.id, record);
    }
    return [...byId.values()];
  }

  find(id: string): CheckpointRecord | undefined {
    return this.records().find((r) => r.id === id);
  }
}
