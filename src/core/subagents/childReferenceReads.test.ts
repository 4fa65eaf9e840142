// An agent's defaultReads never read a restricted path (issue #14: a child never gets more rights than its parent):
// the parent's read_file of `.env` asks for approval, so the child's reference reads may not quietly inline it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceReads } from './childConversation';

const SECRET = 'API_TOKEN=from-the-env-file';

test('defaultReads skip .env and .git files, also through a symlink, and still read the others', () => {
  const ws = mkdtempSync(join(tmpdir(), 'child-reads-'));
  try {
    writeFileSync(join(ws, '.env'), `${SECRET}\n`);
    mkdirSync(join(ws, '.git'));
    writeFileSync(join(ws, '.git', 'config'), '[remote "origin"]\n');
    writeFileSync(join(ws, 'plan.md'), 'the plan\n');
    symlinkSync('.env', join(ws, 'notes.md'));

    const text = referenceReads(['plan.md', '.env', './.env', '.git/config', 'notes.md'], ws) ?? '';

    assert.ok(!text.includes(SECRET), text);
    assert.ok(!text.includes('origin'), text);
    assert.match(text, /--- plan\.md ---\nthe plan\n/);
    for (const p of ['.env', './.env', '.git/config', 'notes.md']) {
      assert.ok(text.includes(`--- ${p} ---\n[skipped: restricted path; read it with read_file]`), `${p} is skipped:\n${text}`);
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
