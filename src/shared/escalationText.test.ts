import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escalationLines } from './escalationText';

test('kinds approved Always, then the granted rules, as the pickers word them', () => {
  assert.deepEqual(
    escalationLines({
      kinds: ['destructive', 'readonly'],
      patterns: [
        { tool: 'bash', pattern: 'npm test *' },
        { tool: 'edit', pattern: '*' },
      ],
    }),
    [
      { label: 'Destructive tools (edits, deletes, shell commands)', description: 'Always' },
      { label: 'Read-only tools', description: 'Always' },
      { label: 'bash: npm test *', description: 'Allow pattern' },
      { label: 'edit: every call', description: 'Accept for Session' },
    ],
  );
  assert.deepEqual(escalationLines(undefined), []);
  assert.deepEqual(escalationLines({ kinds: [], patterns: [] }), []);
});
