import type { SessionView } from '../../src/shared/sessionState';

/** Pinned sessions first, then the most recently modified; `filter` matches titles and names case-insensitively. */
export function orderSessions(sessions: readonly SessionView[], filter = ''): SessionView[] {
  const q = filter.trim().toLowerCase();
  return sessions
    .filter((s) => !q || s.title.toLowerCase().includes(q) || s.name.toLowerCase().includes(q))
    .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.mtime - a.mtime);
}

/** "just now", "5 min ago", "3 h ago", else the date. */
export function relativeTime(mtimeMs: number, nowMs: number): string {
  const s = Math.max(0, (nowMs - mtimeMs) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(mtimeMs).toLocaleDateString();
}
