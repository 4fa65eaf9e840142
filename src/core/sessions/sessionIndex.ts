import fs from 'node:fs';
import path from 'node:path';
import { loadSessionFile } from './sessionFileLoad';
import { readSessionMeta } from './sessionMeta';
import { isSessionFileName } from './sessionSidecars';
import type { SessionMessage } from './sessionTypes';
import type { SessionSummary } from '../../protocol';

export { readSessionMeta, writeSessionMeta, type SessionMeta } from './sessionMeta';
export { checkpointIndexPathFor, deleteSessionFiles, isSessionFileName } from './sessionSidecars';

export type { SessionSummary } from '../../protocol';

const TITLE_MAX_CHARS = 60;

interface SessionFileEntry {
  name: string;
  path: string;
  mtimeMs: number;
}

function sessionFileEntries(dir: string): SessionFileEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const entries: SessionFileEntry[] = [];
  for (const name of names.filter(isSessionFileName)) {
    const filePath = path.join(dir, name);
    try {
      const st = fs.statSync(filePath);
      if (st.isFile()) entries.push({ name, path: filePath, mtimeMs: st.mtimeMs });
    } catch {
      // Deleted between readdir and stat.
    }
  }
  return entries;
}

/** The text of a user message: string content, or its text parts joined by spaces. */
function userMessageText(message: SessionMessage): string | undefined {
  if (message.role !== 'user') return undefined;
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((part): part is { type: 'text'; text: string } => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text);
  return texts.join(' ');
}

function titleFromMessages(messages: SessionMessage[]): string | undefined {
  for (const message of messages) {
    const text = userMessageText(message)?.replace(/\s+/g, ' ').trim();
    if (text) return Array.from(text).slice(0, TITLE_MAX_CHARS).join('');
  }
  return undefined;
}

function summarize(entry: SessionFileEntry, currentPath: string | undefined): SessionSummary {
  const { messages } = loadSessionFile(entry.path);
  const meta = readSessionMeta(entry.path);
  const metaTitle = meta.title?.trim() ? meta.title : undefined;
  return {
    name: entry.name,
    path: entry.path,
    title: metaTitle ?? titleFromMessages(messages) ?? entry.name,
    messages: messages.length,
    mtime: Math.floor(entry.mtimeMs / 1000),
    current: currentPath !== undefined && path.resolve(currentPath) === path.resolve(entry.path),
    pinned: meta.pinned === true,
  };
}

/** Session files in `dir` (never checkpoint indexes), pinned first, then newest first. */
export function listSessions(dir: string, currentPath?: string): SessionSummary[] {
  const entries = sessionFileEntries(dir).sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
  const summaries = entries.map((entry) => summarize(entry, currentPath));
  return [...summaries.filter((s) => s.pinned), ...summaries.filter((s) => !s.pinned)];
}

/** The most recently modified session file in `dir`, the one clients resume on start. */
export function newestSessionFile(dir: string): string | undefined {
  let newest: SessionFileEntry | undefined;
  for (const entry of sessionFileEntries(dir)) {
    if (!newest || entry.mtimeMs > newest.mtimeMs) newest = entry;
  }
  return newest?.path;
}
