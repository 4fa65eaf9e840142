import fs from 'node:fs';
import { parseJsonObjectLine } from './jsonLine';
import { SESSION_VERSION, type LoadedSession, type RunRecord, type SessionMessage } from './sessionTypes';

const TERMINAL_RUN_STATES = new Set(['completed', 'cancelled', 'failed', 'interrupted']);

function readTextIfPresent(filePath: string): string | undefined {
  try {
    return fs.readFileSync(filePath, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

function isRunRecord(value: unknown): value is RunRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.run_id === 'string' && typeof r.state === 'string';
}

function isMessage(obj: Record<string, unknown>): boolean {
  return typeof obj.role === 'string';
}

/** A metadata line this version does not know (e.g. written by a newer core): skipped without complaint. */
function isUnknownMetadataRecord(obj: Record<string, unknown>): boolean {
  const keys = Object.keys(obj);
  return keys.length > 0 && keys.every((k) => k.startsWith('_'));
}

function findInterruptedRuns(runs: RunRecord[]): RunRecord[] {
  const latestByRun = new Map<string, RunRecord>();
  for (const run of runs) latestByRun.set(run.run_id, run);
  return [...latestByRun.values()].filter((run) => !TERMINAL_RUN_STATES.has(run.state));
}

function collectWarnings(s: LoadedSession): string[] {
  const warnings: string[] = [];
  if (s.version !== undefined && s.version > SESSION_VERSION) {
    warnings.push(`session file is from a newer version (v${s.version}; this core writes v${SESSION_VERSION})`);
  }
  if (s.truncatedTail) warnings.push('the last line of the session file was truncated and has been ignored');
  if (s.malformedLines > 0) warnings.push(`${s.malformedLines} malformed line(s) in the session file were skipped`);
  return warnings;
}

/** Loads a session JSONL file. A missing file is an empty session. Never throws because of the file's content. */
export function loadSessionFile(filePath: string): LoadedSession {
  const session: LoadedSession = {
    messages: [],
    runs: [],
    malformedLines: 0,
    truncatedTail: false,
    interruptedRuns: [],
    warnings: [],
  };
  const text = readTextIfPresent(filePath);
  if (text === undefined) return session;

  const lines = text.split('\n').filter((line) => line.trim() !== '');
  lines.forEach((line, i) => {
    const obj = parseJsonObjectLine(line);
    if (!obj) {
      if (i === lines.length - 1) session.truncatedTail = true;
      else session.malformedLines++;
      return;
    }
    if ('_session_version' in obj) {
      if (i === 0 && typeof obj._session_version === 'number') session.version = obj._session_version;
      return;
    }
    if ('_run' in obj) {
      if (isRunRecord(obj._run)) session.runs.push(obj._run);
      else session.malformedLines++;
      return;
    }
    if (isMessage(obj)) session.messages.push(obj as SessionMessage);
    else if (!isUnknownMetadataRecord(obj)) session.malformedLines++;
  });

  session.interruptedRuns = findInterruptedRuns(session.runs);
  session.warnings = collectWarnings(session);
  return session;
}
