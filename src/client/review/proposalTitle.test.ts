import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proposalTitle } from './proposalTitle';

const base = { relPath: 'src/a.ts', isNewFile: false, mergedFromBuffer: false, proposer: 'Catalyst', editable: true };

test("the main agent's proposal, a new file, a merged buffer, read-only", () => {
  assert.equal(proposalTitle(base), 'src/a.ts ↔ Catalyst proposal');
  assert.equal(proposalTitle({ ...base, isNewFile: true }), 'src/a.ts (new file) ↔ Catalyst proposal');
  assert.equal(proposalTitle({ ...base, mergedFromBuffer: true }), 'src/a.ts (your unsaved text) ↔ Catalyst proposal');
  assert.equal(proposalTitle({ ...base, proposer: 'SCV', editable: false }), 'src/a.ts ↔ SCV proposal (read-only)');
});

test("a subagent's proposal names its agent", () => {
  assert.equal(proposalTitle({ ...base, agent: 'worker' }), 'src/a.ts ↔ Catalyst proposal — worker (subagent)');
  assert.equal(
    proposalTitle({ ...base, agent: 'worker', editable: false }),
    'src/a.ts ↔ Catalyst proposal (read-only) — worker (subagent)',
  );
});
