/**
 * The presence records upstream's cores publish so that sessions in one workspace know of each other: one JSON file
 * per process, `~/.config/catalyst-code/presence/<fnv1a64(real workspace path)>/<pid>.json`, rewritten every ~8 s; a
 * file not rewritten for 30 s belongs to a dead process and is removed by whoever reads it (core/src/presence.rs).
 */
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { jittered } from '../runtime/testJitter';

export const STALE_AFTER_MS = 30_000;

export interface PresenceRecord {
  pid: number;
  session_id?: string | null;
  /** Unix seconds. */
  started_at: number;
  last_heartbeat: number;
  goal: string;
  in_progress: string[];
  next: string[];
  recent_files: string[];
  last_activity: string;
  model?: string | null;
}

/** The live records of other processes, oldest session first; stale files are removed, unreadable ones skipped. */
export async function readPeers(dir: string, myPid: number, nowMs: number): Promise<PresenceRecord[]> {
  const names = await fs.readdir(dir).catch(() => []);
  const peers: PresenceRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
    const file = path.join(dir, name);
    const stats = await fs.stat(file).catch(() => undefined);
    if (!stats) continue;
    if (nowMs - stats.mtimeMs > STALE_AFTER_MS) {
      await fs.rm(file, { force: true });
      continue;
    }
    const record = parseRecord(await fs.readFile(file, 'utf8').catch(() => ''));
    if (record && record.pid !== myPid) peers.push(record);
  }
  return peers.sort((a, b) => a.started_at - b.started_at);
}

function parseRecord(text: string): PresenceRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<PresenceRecord>;
    if (typeof value.pid !== 'number') return undefined;
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return {
      pid: value.pid,
      session_id: typeof value.session_id === 'string' ? value.session_id : null,
      started_at: Number(value.started_at) || 0,
      last_heartbeat: Number(value.last_heartbeat) || 0,
      goal: str(value.goal),
      in_progress: list(value.in_progress),
      next: list(value.next),
      recent_files: list(value.recent_files),
      last_activity: str(value.last_activity),
      model: typeof value.model === 'string' ? value.model : null,
    };
  } catch {
    return undefined;
  }
}

export const HEARTBEAT_MS = 8_000;

/**
 * Publishes this process's record now and on every heartbeat, as upstream's cores do, so that they (and other cores
 * like this one) see this session in workspace_activity; stop() removes it. Best effort: presence is advisory.
 */
export function publishPresence(dir: string, record: () => PresenceRecord, log: (message: string) => void): { stop(): void } {
  const file = path.join(dir, `${process.pid}.json`);
  const write = () => {
    try {
      writeFileAtomicSync(file, JSON.stringify(record(), null, 2), { newFileMode: 0o644 });
    } catch (error) {
      log(`presence: could not write ${file}: ${(error as Error).message}`);
    }
  };
  write();
  const timer = setInterval(jittered(write), HEARTBEAT_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      rmSync(file, { force: true });
    },
  };
}
