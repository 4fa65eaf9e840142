import fs from 'node:fs';
import { writeFileAtomicSync } from '../platform/atomicWrite';
import { parseJsonObjectLine } from './jsonLine';

export interface SessionMeta {
  title?: string;
  pinned?: boolean;
}

export function sessionMetaPath(sessionPath: string): string {
  return sessionPath + '.meta.json';
}

function readMetaObject(sessionPath: string): Record<string, unknown> {
  try {
    return parseJsonObjectLine(fs.readFileSync(sessionMetaPath(sessionPath), 'utf8')) ?? {};
  } catch {
    return {};
  }
}

/** `<file>.meta.json`; a missing or unreadable sidecar is empty metadata. */
export function readSessionMeta(sessionPath: string): SessionMeta {
  const raw = readMetaObject(sessionPath);
  const meta: SessionMeta = {};
  if (typeof raw.title === 'string') meta.title = raw.title;
  if (typeof raw.pinned === 'boolean') meta.pinned = raw.pinned;
  return meta;
}

/**
 * Merges `patch` into the sidecar and writes it atomically. Keys written by other clients are kept.
 * An empty title removes the title, so the listing falls back to the first user message.
 */
export function writeSessionMeta(sessionPath: string, patch: SessionMeta): void {
  const raw = readMetaObject(sessionPath);
  if (patch.title !== undefined) {
    if (patch.title.trim() === '') delete raw.title;
    else raw.title = patch.title;
  }
  if (patch.pinned !== undefined) raw.pinned = patch.pinned;
  writeFileAtomicSync(sessionMetaPath(sessionPath), JSON.stringify(raw) + '\n');
}
