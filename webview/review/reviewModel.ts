import type { ApprovalItem, SessionState, TranscriptItem } from '../../src/shared/sessionState';
import type { StateChange } from '../state/store';
import { stringField } from '../tools/toolSummary';

/** The tools whose approvals propose a file change (reviewable in the diff editor); `write` is SCV's. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit', 'patch', 'write']);

export function isFileApproval(item: TranscriptItem | undefined): item is ApprovalItem {
  return item?.kind === 'approval' && FILE_TOOLS.has(item.tool);
}

/** Lines added and removed by a unified diff; `partial` when the diff was cut short or omitted for size. */
export interface DiffCounts {
  added: number;
  removed: number;
  partial: boolean;
}

const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Counts `+` and `-` lines of a unified diff. Inside a hunk the header's line counts decide where it ends, so a removed
 * line reading "-- x" (shown as "--- x") is not taken for a file header. A diff without hunk headers is counted line by
 * line, file headers excluded.
 */
export function countDiff(diff: string): DiffCounts {
  let added = 0;
  let removed = 0;
  let partial = false;
  let oldLeft = 0;
  let newLeft = 0;
  let sawHunk = false;
  for (const line of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === '+') {
        added++;
        newLeft--;
        continue;
      }
      if (c === '-') {
        removed++;
        oldLeft--;
        continue;
      }
      if (c === ' ' || line === '' || line === '\r') {
        oldLeft--;
        newLeft--;
        continue;
      }
      if (c === '\\') continue; // "\ No newline at end of file"
      // Anything else inside a hunk is the core's marker ("… diff truncated …", "… large change …; diff omitted …").
      partial = true;
      oldLeft = newLeft = 0;
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header) {
      sawHunk = true;
      oldLeft = header[1] === undefined ? 1 : Number(header[1]);
      newLeft = header[2] === undefined ? 1 : Number(header[2]);
      continue;
    }
    if (line.startsWith('…')) partial = true;
  }
  if (sawHunk) return { added, removed, partial };
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed, partial };
}

export const REVIEW_STATE_TEXT = {
  pending: 'Waiting for review',
  approved: 'Accepted',
  edited: 'Accepted with your edits',
  denied: 'Rejected',
  expired: 'Expired',
  cancelled: 'Cancelled',
} as const;

/** One row of the "Review changes" list: a file-tool approval. */
export interface ReviewRow {
  /** The approval's request id. */
  id: string;
  path: string;
  tool: string;
  state: ApprovalItem['state'];
  stateText: string;
  /** From the approval's diff; undefined when the core sent none. */
  counts?: DiffCounts;
  error?: string;
  /** A subagent's proposal: its child run and agent (the list groups rows by run). */
  childRunId?: string;
  agent?: string;
}

export function reviewStateText(item: ApprovalItem): string {
  if (item.state === 'approved') return item.edited ? REVIEW_STATE_TEXT.edited : REVIEW_STATE_TEXT.approved;
  return REVIEW_STATE_TEXT[item.state];
}

/** The approvals the list shows and where they are in the transcript (a patch touching one of them matters). */
export interface ReviewSelection {
  approvals: ApprovalItem[];
  indexes: number[];
}

/**
 * The file-tool approvals to list: those of the current run while one is going (none yet: no rows), else those of the
 * most recent run that had one. A run is known by its id; approvals without one (a core that does not stamp run ids)
 * belong to the run started by the user prompt before them.
 */
export function reviewApprovals(items: readonly TranscriptItem[], run: SessionState['run']): ReviewSelection {
  const lastUser = lastIndex(items, items.length - 1, (i) => i.kind === 'user');
  if (run.status !== 'idle') {
    const runId = run.runId;
    return collect(items, 0, items.length - 1, (a, i) => (runId !== undefined && a.runId !== undefined ? a.runId === runId : i > lastUser));
  }
  const lastFile = lastIndex(items, items.length - 1, isFileApproval);
  if (lastFile < 0) return { approvals: [], indexes: [] };
  const anchor = items[lastFile] as ApprovalItem;
  if (anchor.runId !== undefined) return collect(items, 0, lastFile, (a) => a.runId === anchor.runId);
  const start = lastIndex(items, lastFile, (i) => i.kind === 'user');
  return collect(items, start + 1, lastFile, (a) => a.runId === undefined);
}

/**
 * Whether a state change can change the list: a new snapshot, the run, a shrunk transcript, or a touched item that is an
 * approval or a prompt (they decide the rows) or was shown. Streamed text and tool output never are.
 */
export function reviewAffected(
  change: StateChange,
  items: readonly TranscriptItem[],
  shown: ReadonlySet<number>,
  lastLength: number,
): boolean {
  if (change.reset || change.keys.has('run') || items.length < lastLength) return true;
  for (const i of change.items) {
    const kind = items[i]?.kind;
    if (kind === 'approval' || kind === 'user' || shown.has(i)) return true;
  }
  return false;
}

/** Counting a diff is linear in its size: each approval's counts are kept while its diff is the same string. */
export class ReviewRowCache {
  private readonly counts = new Map<string, { diff: string; counts: DiffCounts }>();

  rows(approvals: readonly ApprovalItem[]): ReviewRow[] {
    const live = new Set<string>();
    const rows = approvals.map((item) => {
      live.add(item.id);
      const row: ReviewRow = {
        id: item.id,
        path: approvalPath(item),
        tool: item.tool,
        state: item.state,
        stateText: reviewStateText(item),
      };
      const counts = item.diff ? this.countsOf(item.id, item.diff) : undefined;
      if (counts) row.counts = counts;
      if (item.error) row.error = item.error;
      if (item.childRunId !== undefined) {
        row.childRunId = item.childRunId;
        row.agent = item.agent ?? item.childRunId;
      }
      return row;
    });
    for (const id of this.counts.keys()) if (!live.has(id)) this.counts.delete(id);
    return rows;
  }

  private countsOf(id: string, diff: string): DiffCounts {
    const cached = this.counts.get(id);
    if (cached && cached.diff === diff) return cached.counts;
    const counts = countDiff(diff);
    this.counts.set(id, { diff, counts });
    return counts;
  }
}

/** A signature of what the list shows: equal signatures need no re-render. */
export function rowsSignature(rows: readonly ReviewRow[]): string {
  return rows
    .map((r) =>
      [
        r.id,
        r.path,
        r.tool,
        r.state,
        r.stateText,
        r.counts ? `${r.counts.added}/${r.counts.removed}/${r.counts.partial}` : '',
        r.error ?? '',
        r.childRunId ?? '',
        r.agent ?? '',
      ].join('\u0001'),
    )
    .join('\u0002');
}

/** A run's rows together, in order of first appearance; the parent's own proposals (no child run) first. */
export function groupRowsByRun(rows: readonly ReviewRow[]): { childRunId?: string; agent?: string; rows: ReviewRow[] }[] {
  const groups = new Map<string, { childRunId?: string; agent?: string; rows: ReviewRow[] }>();
  groups.set('', { rows: [] });
  for (const r of rows) {
    const key = r.childRunId ?? '';
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { childRunId: r.childRunId, agent: r.agent, rows: [] }));
    group.rows.push(r);
  }
  return [...groups.values()].filter((g) => g.rows.length > 0);
}

/** The file an approval is about: the tool's `path` argument, else the diff's `+++` header. */
export function approvalPath(item: ApprovalItem): string {
  const fromArgs = stringField(item.args, 'path');
  if (fromArgs) return fromArgs;
  const header = item.diff ? /^\+\+\+ (?:b\/)?([^\t\n]+)/m.exec(item.diff) : null;
  return header && header[1] !== '/dev/null' ? header[1].trim() : '(unknown file)';
}

function lastIndex(items: readonly TranscriptItem[], from: number, pred: (item: TranscriptItem) => boolean): number {
  for (let i = from; i >= 0; i--) if (pred(items[i])) return i;
  return -1;
}

function collect(
  items: readonly TranscriptItem[],
  from: number,
  to: number,
  pred: (item: ApprovalItem, index: number) => boolean,
): ReviewSelection {
  const selection: ReviewSelection = { approvals: [], indexes: [] };
  for (let i = Math.max(0, from); i <= to; i++) {
    const item = items[i];
    if (!isFileApproval(item) || !pred(item, i)) continue;
    selection.approvals.push(item);
    selection.indexes.push(i);
  }
  return selection;
}
