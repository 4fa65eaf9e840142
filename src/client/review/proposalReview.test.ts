import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ProposalReview } from './proposalReview';
import { rejectHunk, reviewHunks } from './reviewHunks';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('');
const PROPOSAL = ORIGINAL.replace('line 3\n', 'line three\n').replace('line 15\n', 'line 15\nextra\n').replace('line 28\n', '');

describe('ProposalReview', () => {
  test('exposes the original and the model proposal', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    assert.equal(review.original, ORIGINAL);
    assert.equal(review.modelProposal, PROPOSAL);
  });

  test('untouched: every block is pending; the answer is yes without edited content', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    assert.equal(review.pendingHunks(PROPOSAL).length, 3);
    assert.equal(review.allDecided(PROPOSAL), false);
    assert.deepEqual(review.answerFor(PROPOSAL), { decision: 'yes' });
  });

  test('accepting blocks removes them from pending; all accepted → decided, yes without edited content', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    const [first, second, third] = reviewHunks(ORIGINAL, PROPOSAL);
    review.acceptHunk(second.key);
    assert.equal(review.isAccepted(second.key), true);
    assert.equal(review.isAccepted(first.key), false);
    assert.deepEqual(
      review.pendingHunks(PROPOSAL).map((h) => h.key),
      [first.key, third.key],
    );
    review.acceptHunk(first.key);
    review.acceptHunk(third.key);
    review.acceptHunk(third.key); // idempotent
    assert.deepEqual(review.pendingHunks(PROPOSAL), []);
    assert.equal(review.allDecided(PROPOSAL), true);
    assert.deepEqual(review.answerFor(PROPOSAL), { decision: 'yes' });
  });

  test('one rejected, the others accepted → decided, yes with the edited content', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    const [first, second, third] = reviewHunks(ORIGINAL, PROPOSAL);
    review.acceptHunk(first.key);
    const current = rejectHunk(ORIGINAL, PROPOSAL, second.key) as string;
    assert.deepEqual(
      review.pendingHunks(current).map((h) => h.key),
      [third.key],
    );
    assert.equal(review.allDecided(current), false);
    review.acceptHunk(third.key);
    assert.equal(review.allDecided(current), true);
    assert.deepEqual(review.answerFor(current), {
      decision: 'yes',
      editedContent: ORIGINAL.replace('line 3\n', 'line three\n').replace('line 28\n', ''),
    });
  });

  test('all rejected → decided, no', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    let current = PROPOSAL;
    for (const hunk of reviewHunks(ORIGINAL, PROPOSAL)) current = rejectHunk(ORIGINAL, current, hunk.key) as string;
    assert.equal(current, ORIGINAL);
    assert.equal(review.allDecided(current), true);
    assert.deepEqual(review.answerFor(current), { decision: 'no' });
  });

  test('a new file the user emptied is a no; a new file kept is a yes', () => {
    const review = new ProposalReview({ original: '', modelProposal: 'hello\n' });
    assert.equal(review.pendingHunks('hello\n').length, 1);
    assert.deepEqual(review.answerFor(''), { decision: 'no' });
    assert.equal(review.allDecided(''), true);
    assert.deepEqual(review.answerFor('hello\n'), { decision: 'yes' });
  });

  test('a hand edit is a new pending block and is sent as edited content', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    for (const hunk of reviewHunks(ORIGINAL, PROPOSAL)) review.acceptHunk(hunk.key);
    const edited = PROPOSAL.replace('line 10\n', 'line 10 // reviewed\n');
    const pending = review.pendingHunks(edited);
    assert.equal(pending.length, 1);
    assert.equal(pending[0].proposalStart, 9);
    assert.deepEqual(review.answerFor(edited), { decision: 'yes', editedContent: edited });
    review.acceptHunk(pending[0].key);
    assert.equal(review.allDecided(edited), true);
  });

  test('editing inside an accepted block makes it pending again', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    for (const hunk of reviewHunks(ORIGINAL, PROPOSAL)) review.acceptHunk(hunk.key);
    const edited = PROPOSAL.replace('line three\n', 'line 3!\n');
    assert.deepEqual(
      review.pendingHunks(edited).map((h) => h.proposalStart),
      [2],
    );
  });

  test('a proposal that changes nothing is decided at once and answered yes', () => {
    const review = new ProposalReview({ original: 'same\n', modelProposal: 'same\n' });
    assert.equal(review.allDecided('same\n'), true);
    assert.deepEqual(review.answerFor('same\n'), { decision: 'yes' });
    assert.deepEqual(review.answerFor('changed\n'), { decision: 'yes', editedContent: 'changed\n' });
  });

  test('reset adopts the new texts and forgets the accepted blocks', () => {
    const review = new ProposalReview({ original: ORIGINAL, modelProposal: PROPOSAL });
    const [first] = reviewHunks(ORIGINAL, PROPOSAL);
    review.acceptHunk(first.key);
    const newOriginal = `header\n${ORIGINAL}`;
    const newProposal = `header\n${PROPOSAL}`;
    review.reset({ original: newOriginal, modelProposal: newProposal });
    assert.equal(review.original, newOriginal);
    assert.equal(review.modelProposal, newProposal);
    assert.equal(review.isAccepted(first.key), false);
    assert.equal(review.pendingHunks(newProposal).length, 3);
    assert.deepEqual(review.answerFor(newOriginal), { decision: 'no' });
    assert.deepEqual(review.answerFor(newProposal), { decision: 'yes' });
  });
});
