// What the checkpoint UI says: labels, relative times, decorations, confirmations and quick-pick rows. Pure text.
import type { CheckpointChangeStatus, CheckpointEntry, CheckpointFileChange } from './checkpointEvents';

const AUTO_LABELS: Record<string, string> = {
  'auto-before-destructive': 'Before agent edits',
};
const PLAIN_LABELS = new Set(['', 'manual', 'checkpoint']);

/** The core's label for people: its automatic labels in words, an unnamed one as "Checkpoint". */
export function displayLabel(entry: Pick<CheckpointEntry, 'label' | 'auto'>): string {
  const label = entry.label.trim();
  if (AUTO_LABELS[label]) return AUTO_LABELS[label];
  if (PLAIN_LABELS.has(label)) return entry.auto ? 'Automatic checkpoint' : 'Checkpoint';
  return label.length > 80 ? `${label.slice(0, 79)}…` : label;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date. */
export function relativeTime(ms: number | undefined, now: number): string {
  if (ms === undefined) return 'unknown time';
  const age = now - ms;
  if (age < 45_000) return 'just now';
  if (age < 90_000) return '1 min ago';
  if (age < HOUR) return `${Math.round(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.max(1, Math.round(age / HOUR))} h ago`;
  if (age < 2 * DAY) return 'yesterday';
  if (age < 7 * DAY) return `${Math.floor(age / DAY)} days ago`;
  return new Date(ms).toISOString().slice(0, 10);
}

/** An absolute time for tooltips: `2026-03-01 14:05:09` (UTC offsets left to the reader's locale elsewhere). */
export function absoluteTime(ms: number | undefined): string {
  if (ms === undefined) return 'unknown time';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export interface GroupLabelContext {
  now: number;
  /** The checkpoint's differences from the working tree; undefined when not known. */
  files?: readonly CheckpointFileChange[];
  /** The prompt of the turn it belongs to, when the chat still has it. */
  prompt?: string;
  /** Why no file list is shown, when the core cannot give one or it was not fetched. */
  filesNote?: string;
}

/** A Source Control group header: `<label> · <relative time> · auto|manual[ · “prompt”][ · note]`. */
export function groupLabel(entry: CheckpointEntry, ctx: GroupLabelContext): string {
  const parts = [displayLabel(entry), relativeTime(entry.createdAt, ctx.now), entry.auto ? 'auto' : 'manual'];
  if (ctx.prompt) parts.push(`“${clip(ctx.prompt, 40)}”`);
  else if (entry.runId) parts.push(`run ${shortRunId(entry.runId)}`);
  if (ctx.filesNote) parts.push(ctx.filesNote);
  else if (ctx.files && ctx.files.length === 0) parts.push('no changes since');
  return parts.join(' · ');
}

export function shortRunId(runId: string): string {
  const tail = runId.replace(/^run[-_]?/, '');
  return tail.length > 8 ? tail.slice(0, 8) : tail;
}

export interface ChangeDecoration {
  /** A codicon for the row's end. */
  icon: 'diff-modified' | 'diff-added' | 'diff-removed';
  /** The theme colour the git extension uses for the same state. */
  color: string;
  strikeThrough: boolean;
  tooltip: string;
  /** One letter, for text lists. */
  letter: 'M' | 'A' | 'D';
}

const DECORATIONS: Record<CheckpointChangeStatus, Omit<ChangeDecoration, 'tooltip'> & { what: string }> = {
  modified: {
    icon: 'diff-modified',
    color: 'gitDecoration.modifiedResourceForeground',
    strikeThrough: false,
    letter: 'M',
    what: 'Modified since the checkpoint: restoring brings back its version',
  },
  added: {
    icon: 'diff-added',
    color: 'gitDecoration.untrackedResourceForeground',
    strikeThrough: false,
    letter: 'A',
    what: 'Created after the checkpoint: restoring removes it',
  },
  deleted: {
    icon: 'diff-removed',
    color: 'gitDecoration.deletedResourceForeground',
    strikeThrough: true,
    letter: 'D',
    what: 'Deleted since the checkpoint: restoring recreates it',
  },
};

export function changeDecoration(change: CheckpointFileChange): ChangeDecoration {
  const { what, ...d } = DECORATIONS[change.status];
  return { ...d, tooltip: `${change.path}\n${what}` };
}

export interface RestoreCounts {
  /** Written back to the checkpoint's content (modified or deleted since). */
  restored: number;
  /** Removed because the checkpoint did not have them. */
  removed: number;
}

export function restoreCounts(files: readonly CheckpointFileChange[]): RestoreCounts {
  let restored = 0;
  let removed = 0;
  for (const f of files) {
    if (f.status === 'added') removed++;
    else restored++;
  }
  return { restored, removed };
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "3 files will be restored, 1 removed" (or "no file changes"). */
export function describeRestoreCounts(c: RestoreCounts): string {
  if (c.restored === 0 && c.removed === 0) return 'No file will change';
  const parts: string[] = [];
  if (c.restored > 0) parts.push(`${plural(c.restored, 'file')} will be restored`);
  if (c.removed > 0) parts.push(c.restored > 0 ? `${c.removed} removed` : `${plural(c.removed, 'file')} will be removed`);
  return parts.join(', ');
}

export interface Confirmation {
  message: string;
  detail: string;
  /** The confirming button. */
  button: string;
  /** Nothing would change: tell, do not ask. */
  nothingToDo?: boolean;
}

const LIST_LIMIT = 12;

function fileLines(files: readonly CheckpointFileChange[]): string {
  const lines = files.slice(0, LIST_LIMIT).map((f) => {
    const note = f.status === 'added' ? ' (removed)' : f.status === 'deleted' ? ' (recreated)' : '';
    return `  ${changeDecoration(f).letter}  ${f.path}${note}`;
  });
  if (files.length > LIST_LIMIT) lines.push(`  …and ${files.length - LIST_LIMIT} more`);
  return lines.join('\n');
}

function title(entry: CheckpointEntry, now: number): string {
  return `“${displayLabel(entry)}” (${relativeTime(entry.createdAt, now)})`;
}

/** The modal before restoring a whole checkpoint: what will change, file by file. */
export function restoreConfirmation(entry: CheckpointEntry, files: readonly CheckpointFileChange[] | undefined, now: number): Confirmation {
  const message = `Restore checkpoint ${title(entry, now)}?`;
  if (!files) {
    return {
      message,
      detail:
        'Every file goes back to its state at the checkpoint, and files created since are removed. This core cannot list the affected files beforehand.',
      button: 'Restore',
    };
  }
  if (files.length === 0)
    return {
      message: `The workspace already matches checkpoint ${title(entry, now)}.`,
      detail: 'Nothing to restore.',
      button: 'Restore',
      nothingToDo: true,
    };
  const skipped =
    entry.skipped.length > 0
      ? `\n\n${plural(entry.skipped.length, 'file')} over the size limit ${entry.skipped.length === 1 ? 'was' : 'were'} not in the checkpoint and stay as they are.`
      : '';
  return { message, detail: `${describeRestoreCounts(restoreCounts(files))}:\n${fileLines(files)}${skipped}`, button: 'Restore' };
}

/** The modal before restoring one file of a checkpoint. */
export function restoreFileConfirmation(entry: CheckpointEntry, change: CheckpointFileChange, now: number): Confirmation {
  const detail =
    change.status === 'added'
      ? 'It did not exist at the checkpoint, so restoring removes it.'
      : change.status === 'deleted'
        ? 'It is recreated with its content at the checkpoint.'
        : 'Your current version is replaced by the checkpoint’s.';
  return {
    message: `Restore ${change.path} from checkpoint ${title(entry, now)}?`,
    detail,
    button: change.status === 'added' ? 'Remove File' : 'Restore File',
  };
}

export function deleteConfirmation(entry: CheckpointEntry, now: number): Confirmation {
  return {
    message: `Delete checkpoint ${title(entry, now)}?`,
    detail: 'Your files do not change; the checkpoint can no longer be compared or restored.',
    button: 'Delete',
  };
}

/** After `checkpoint_restored`: what happened, from the core's own lists when it sent them. */
export function restoredMessage(label: string, restored: readonly string[] | undefined, removed: readonly string[] | undefined): string {
  if (!restored && !removed) return `Restored checkpoint “${label}”.`;
  const r = restored?.length ?? 0;
  const d = removed?.length ?? 0;
  if (r === 0 && d === 0) return `Checkpoint “${label}”: nothing needed restoring.`;
  const parts = [];
  if (r > 0) parts.push(`${plural(r, 'file')} restored`);
  if (d > 0) parts.push(`${plural(d, 'file')} removed`);
  return `Restored checkpoint “${label}”: ${parts.join(', ')}.`;
}

export interface CheckpointPickRow {
  id: string;
  label: string;
  description: string;
  detail: string;
}

/** The rows of "Restore Checkpoint…": label, when and how, and a preview of the files a restore would change. */
export function checkpointPickRows(
  entries: readonly CheckpointEntry[],
  changesOf: (id: string) => readonly CheckpointFileChange[] | undefined,
  now: number,
  filesSupported: boolean,
): CheckpointPickRow[] {
  return entries.map((entry) => {
    const files = changesOf(entry.id);
    const description = [relativeTime(entry.createdAt, now), entry.auto ? 'auto' : 'manual', entry.kind].filter(Boolean).join(' · ');
    return { id: entry.id, label: displayLabel(entry), description, detail: previewFiles(files, filesSupported) };
  });
}

/** "M src/a.ts, D old.txt, A new.txt +3 more" — one line. */
export function previewFiles(files: readonly CheckpointFileChange[] | undefined, filesSupported: boolean): string {
  if (!files) return filesSupported ? 'Changed files not compared yet' : 'This core does not list a checkpoint’s files';
  if (files.length === 0) return 'No changes since: the workspace matches this checkpoint';
  const shown = files.slice(0, 4).map((f) => `${changeDecoration(f).letter} ${f.path}`);
  const more = files.length > shown.length ? ` +${files.length - shown.length} more` : '';
  return `${describeRestoreCounts(restoreCounts(files))}: ${shown.join(', ')}${more}`;
}

/** The tooltip of the status-bar count. */
export function statusTooltip(count: number, newest: CheckpointEntry | undefined, folder: string | undefined, now: number): string {
  const where = folder ? ` in ${folder}` : '';
  if (count === 0 || !newest) return `No Catalyst checkpoints${where} yet. Click to show Source Control.`;
  return `${plural(count, 'Catalyst checkpoint')}${where}; newest: ${displayLabel(newest)}, ${relativeTime(newest.createdAt, now)}. Click to show them in Source Control.`;
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
