import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visionNoteOf } from './visionNote';

test("upstream's hand-off info (the default pick or a pre_turn hook's) and our describe info each give their note", () => {
  const handoff = 'vision handoff: glm-5 → vision-mini (cheapest same-provider)';
  assert.deepEqual(visionNoteOf(handoff), { label: '→ vision-mini', detail: handoff });
  assert.equal(visionNoteOf('vision handoff: glm-5 → sharp-eyes (the sharp one)')?.label, '→ sharp-eyes');
  const describe = 'vision describe: glm-5 ← vision-mini (described 1 image; the image is not sent)';
  assert.deepEqual(visionNoteOf(describe), { label: 'described by vision-mini', detail: describe });
});

test('the refusal and an ignored hook pick are no note', () => {
  for (const message of [
    "image attached but vision handoff is disabled and 'glm-5' lacks vision; enable it in Settings / /vision (recommended), or pick a vision model",
    "vision handoff ignored: 'nope' is not a discovered model",
  ])
    assert.equal(visionNoteOf(message), undefined, message);
});
