import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckpointEntry, CheckpointFileChange } from './checkpointEvents';
import {
  changeDecoration,
  checkpointPickRows,
  deleteConfirmation,
  describeRestoreCounts,
  displayLabel,
  groupLabel,
  previewFiles,
  relativeTime,
  restoreConfirmation,
  restoreCounts,
  restoredMessage,
  restoreFileConfirmation,
  statusTooltip,
} from './checkpointFormat';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MIN = 60_000;
const entry = (over: Partial<CheckpointEntry> = {}): CheckpointEntry => ({
  id: 'cp-1',
  label: 'auto-before-destructive',
  createdAt: NOW - 5 * MIN,
  auto: true,
  paths: [],
  skipped: [],
  ...over,
});
const files: CheckpointFileChange[] = [
  { path: 'src/a.ts', status: 'modified' },
  { path: 'src/b.ts', status: 'modified' },
  { path: 'old.txt', status: 'deleted' },
  { path: 'new.txt', status: 'added' },
];

describe('labels and times', () => {
  test('display labels', () => {
    assert.equal(displayLabel({ label: 'auto-before-destructive', auto: true }), 'Before agent edits');
    assert.equal(displayLabel({ label: 'manual', auto: false }), 'Checkpoint');
    assert.equal(displayLabel({ label: '', auto: true }), 'Automatic checkpoint');
    assert.equal(displayLabel({ label: '  before the refactor ', auto: false }), 'before the refactor');
    assert.equal(displayLabel({ label: 'x'.repeat(100), auto: false }).length, 80);
  });

  test('relative times', () => {
    const cases: [number, string][] = [
      [0, 'just now'],
      [44_000, 'just now'],
      [60_000, '1 min ago'],
      [5 * MIN, '5 min ago'],
      [59 * MIN, '59 min ago'],
      [3 * 60 * MIN, '3 h ago'],
      [30 * 60 * MIN, 'yesterday'],
      [4 * 24 * 60 * MIN, '4 days ago'],
      [30 * 24 * 60 * MIN, '2025-12-16'],
    ];
    for (const [age, text] of cases) assert.equal(relativeTime(NOW - age, NOW), text, String(age));
    assert.equal(relativeTime(undefined, NOW), 'unknown time');
    assert.equal(relativeTime(NOW + 10_000, NOW), 'just now', 'a clock a little ahead');
  });

  test('group labels: label · time · kind, then the turn’s prompt or run, then a note', () => {
    assert.equal(groupLabel(entry(), { now: NOW }), 'Before agent edits · 5 min ago · auto');
    assert.equal(groupLabel(entry({ runId: 'run-0123456789' }), { now: NOW }), 'Before agent edits · 5 min ago · auto · run 01234567');
    assert.equal(
      groupLabel(entry({ runId: 'run-1' }), { now: NOW, prompt: 'Fix the\nlogin bug in the session handling code please' }),
      'Before agent edits · 5 min ago · auto · “Fix the login bug in the session handli…”',
    );
    assert.equal(
      groupLabel(entry({ label: 'mine', auto: false }), { now: NOW, files: [] }),
      'mine · 5 min ago · manual · no changes since',
    );
    assert.equal(
      groupLabel(entry(), { now: NOW, files: [], filesNote: 'files not listed by this core' }),
      'Before agent edits · 5 min ago · auto · files not listed by this core',
    );
  });
});

describe('decorations', () => {
  test('each status: icon, git colour, strike-through for deleted, a tooltip saying what a restore does', () => {
    assert.deepEqual(changeDecoration({ path: 'a', status: 'modified' }), {
      icon: 'diff-modified',
      color: 'gitDecoration.modifiedResourceForeground',
      strikeThrough: false,
      letter: 'M',
      tooltip: 'a\nModified since the checkpoint: restoring brings back its version',
    });
    assert.equal(changeDecoration({ path: 'a', status: 'deleted' }).strikeThrough, true);
    assert.match(changeDecoration({ path: 'a', status: 'deleted' }).tooltip, /recreates/);
    assert.match(changeDecoration({ path: 'a', status: 'added' }).tooltip, /removes it/);
    assert.equal(changeDecoration({ path: 'a', status: 'added' }).letter, 'A');
  });
});

describe('what a restore will change', () => {
  test('counts and their sentence', () => {
    assert.deepEqual(restoreCounts(files), { restored: 3, removed: 1 });
    assert.equal(describeRestoreCounts({ restored: 3, removed: 1 }), '3 files will be restored, 1 removed');
    assert.equal(describeRestoreCounts({ restored: 1, removed: 0 }), '1 file will be restored');
    assert.equal(describeRestoreCounts({ restored: 0, removed: 2 }), '2 files will be removed');
    assert.equal(describeRestoreCounts({ restored: 0, removed: 0 }), 'No file will change');
  });

  test('the restore modal lists the files; nothing to do is said, not asked; unknown files are explained', () => {
    const c = restoreConfirmation(entry(), files, NOW);
    assert.equal(c.message, 'Restore checkpoint “Before agent edits” (5 min ago)?');
    assert.equal(
      c.detail,
      '3 files will be restored, 1 removed:\n  M  src/a.ts\n  M  src/b.ts\n  D  old.txt (recreated)\n  A  new.txt (removed)',
    );
    assert.equal(c.button, 'Restore');
    assert.equal(c.nothingToDo, undefined);
    assert.equal(restoreConfirmation(entry(), [], NOW).nothingToDo, true);
    assert.match(restoreConfirmation(entry(), undefined, NOW).detail, /cannot list/);
    const many = Array.from({ length: 15 }, (_, i) => ({ path: `f${i}.ts`, status: 'modified' as const }));
    assert.match(restoreConfirmation(entry(), many, NOW).detail, /…and 3 more$/);
    assert.match(
      restoreConfirmation(entry({ skipped: ['big.bin'] }), files, NOW).detail,
      /1 file over the size limit was not in the checkpoint/,
    );
  });

  test('one file, and delete', () => {
    assert.deepEqual(restoreFileConfirmation(entry(), { path: 'new.txt', status: 'added' }, NOW), {
      message: 'Restore new.txt from checkpoint “Before agent edits” (5 min ago)?',
      detail: 'It did not exist at the checkpoint, so restoring removes it.',
      button: 'Remove File',
    });
    assert.equal(restoreFileConfirmation(entry(), { path: 'a', status: 'modified' }, NOW).button, 'Restore File');
    assert.match(restoreFileConfirmation(entry(), { path: 'a', status: 'deleted' }, NOW).detail, /recreated/);
    const d = deleteConfirmation(entry({ label: 'mine', auto: false }), NOW);
    assert.equal(d.message, 'Delete checkpoint “mine” (5 min ago)?');
    assert.match(d.detail, /files do not change/);
    assert.equal(d.button, 'Delete');
  });

  test('after the restore', () => {
    assert.equal(restoredMessage('x', ['a', 'b'], ['c']), 'Restored checkpoint “x”: 2 files restored, 1 file removed.');
    assert.equal(restoredMessage('x', ['a'], []), 'Restored checkpoint “x”: 1 file restored.');
    assert.equal(restoredMessage('x', [], []), 'Checkpoint “x”: nothing needed restoring.');
    assert.equal(restoredMessage('x', undefined, undefined), 'Restored checkpoint “x”.');
  });
});

describe('Restore Checkpoint… rows and the status bar', () => {
  test('each row previews its files', () => {
    const rows = checkpointPickRows(
      [entry({ kind: 'git' }), entry({ id: 'cp-2', label: 'mine', auto: false, createdAt: NOW - 2 * 60 * MIN })],
      (id) => (id === 'cp-1' ? files : undefined),
      NOW,
      true,
    );
    assert.deepEqual(rows, [
      {
        id: 'cp-1',
        label: 'Before agent edits',
        description: '5 min ago · auto · git',
        detail: '3 files will be restored, 1 removed: M src/a.ts, M src/b.ts, D old.txt, A new.txt',
      },
      { id: 'cp-2', label: 'mine', description: '2 h ago · manual', detail: 'Changed files not compared yet' },
    ]);
  });

  test('previews: many files, none, a core that cannot list them', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ path: `f${i}`, status: 'modified' as const }));
    assert.equal(previewFiles(many, true), '7 files will be restored: M f0, M f1, M f2, M f3 +3 more');
    assert.match(previewFiles([], true), /No changes since/);
    assert.match(previewFiles(undefined, false), /does not list/);
  });

  test('status tooltip', () => {
    assert.equal(statusTooltip(0, undefined, undefined, NOW), 'No Catalyst checkpoints yet. Click to show Source Control.');
    assert.equal(
      statusTooltip(3, entry(), 'api', NOW),
      '3 Catalyst checkpoints in api; newest: Before agent edits, 5 min ago. Click to show them in Source Control.',
    );
    assert.match(statusTooltip(1, entry(), undefined, NOW), /^1 Catalyst checkpoint;/);
  });
});
