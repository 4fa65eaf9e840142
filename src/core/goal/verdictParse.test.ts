import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCeoVerdict } from './verdictParse';

test('a PASS, CERTIFY or CERTIFIED marker passes, in any case', () => {
  for (const marker of ['VERDICT: PASS', 'verdict: certify', 'Verdict: Certified'])
    assert.equal(parseCeoVerdict(`All criteria hold.\n${marker}`).ok, true, marker);
});

test('a fail marker wins over a pass marker, and no marker at all fails', () => {
  assert.equal(parseCeoVerdict('VERDICT: PASS\n…on second thought\nVERDICT: REVISE').ok, false);
  assert.equal(parseCeoVerdict('VERDICT: REMAINING_GAPS').ok, false);
  assert.equal(parseCeoVerdict('Looks fine to me.').ok, false);
});

test('the summary is the trimmed text, capped at 2000 chars, or a stand-in when empty', () => {
  assert.equal(parseCeoVerdict('  VERDICT: PASS  \n').summary, 'VERDICT: PASS');
  assert.equal(parseCeoVerdict('x'.repeat(2500) + ' VERDICT: PASS').summary.length, 2000);
  assert.equal(parseCeoVerdict('').summary, 'VERDICT: FAIL (no verdict text)');
});

test('gaps: the list under a gaps line or a Fixes / Remaining gaps heading, until a blank line or a heading', () => {
  const text = [
    'VERDICT: FAIL',
    '## Remaining gaps',
    '- the report misses the first line',
    '* tests were not run',
    '',
    'Some prose that is not a gap.',
    'GAPS: the build is red',
    '- lint fails',
    '## Evidence',
    '- notes.txt:1',
  ].join('\n');
  assert.deepEqual(parseCeoVerdict(text).gaps, [
    'the report misses the first line',
    'tests were not run',
    'the build is red',
    'lint fails',
  ]);
  assert.deepEqual(parseCeoVerdict('VERDICT: REVISE\n## Fixes\n- split step b\nVERDICT: REVISE').gaps, ['split step b']);
  assert.deepEqual(parseCeoVerdict('VERDICT: PASS').gaps, []);
});
