import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type SessionState, type UserItem } from '../../shared/sessionState';
import { sessionReducer } from './sessionReducer';
import { visionNoteOf } from './visionNote';

const reduce = (s: SessionState, e: Record<string, unknown>) => sessionReducer(s, e as never);
const prompted = () => reduce(initialSessionState(), { type: 'client:prompt', text: 'what is this?', images: 1 });
const user = (s: SessionState) => s.items.find((i): i is UserItem => i.kind === 'user');
const REFUSED =
  "image attached but vision handoff is disabled and 'glm-5' lacks vision; enable it in Settings / /vision (recommended), or pick a vision model";
const IGNORED = "vision handoff ignored: 'nope' is not a discovered model";

test("upstream's hand-off info (the default pick or a pre_turn hook's) and our describe info each give their note", () => {
  const handoff = 'vision handoff: glm-5 → vision-mini (cheapest same-provider)';
  assert.deepEqual(visionNoteOf(handoff), { label: '→ vision-mini', detail: handoff });
  assert.equal(visionNoteOf('vision handoff: glm-5 → sharp-eyes (the sharp one)')?.label, '→ sharp-eyes');
  const describe = 'vision describe: glm-5 ← vision-mini (described 1 image; the image is not sent)';
  assert.deepEqual(visionNoteOf(describe), { label: 'described by vision-mini', detail: describe });
});

test('the refusal and an ignored hook pick are no note', () => {
  for (const message of [REFUSED, IGNORED]) assert.equal(visionNoteOf(message), undefined, message);
});

test("the note goes on the user's message, not into a separate notice", () => {
  const info = 'vision handoff: glm-5 → vision-mini (cheapest same-provider)';
  const s = reduce(prompted(), { type: 'info', message: info });
  assert.deepEqual(user(s)?.vision, { label: '→ vision-mini', detail: info });
  assert.equal(s.items.filter((i) => i.kind === 'notice').length, 0);
  const described = reduce(prompted(), { type: 'info', message: 'vision describe: glm-5 ← vision-mini (described 1 image; x)' });
  assert.equal(user(described)?.vision?.label, 'described by vision-mini');
});

test('other vision infos stay notices, and so does a hand-off with no message to sit on', () => {
  for (const message of [REFUSED, IGNORED]) {
    const s = reduce(prompted(), { type: 'info', message });
    assert.equal(user(s)?.vision, undefined);
    assert.equal(s.items.at(-1)?.kind, 'notice', message);
  }
  const alone = reduce(initialSessionState(), { type: 'info', message: 'vision handoff: a → b (x)' });
  assert.equal(alone.items.at(-1)?.kind, 'notice');
});
