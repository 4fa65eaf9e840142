/**
 * One proposal under review in the diff editor: the original text, the model's proposal, and which change blocks the
 * user accepted. Rejected blocks need no bookkeeping — rejecting reverts the block in the proposal document, so it
 * simply stops being a block of the current text.
 */
import { reviewHunks, type ReviewHunk } from './reviewHunks';

export type ReviewAnswer = { decision: 'yes'; editedContent?: string } | { decision: 'no' };

export class ProposalReview {
  private originalText: string;
  private modelProposalText: string;
  private readonly accepted = new Set<string>();

  constructor(init: { original: string; modelProposal: string }) {
    this.originalText = init.original;
    this.modelProposalText = init.modelProposal;
  }

  get original(): string {
    return this.originalText;
  }

  get modelProposal(): string {
    return this.modelProposalText;
  }

  acceptHunk(key: string): void {
    this.accepted.add(key);
  }

  isAccepted(key: string): boolean {
    return this.accepted.has(key);
  }

  /** Blocks of currentText vs original that the user has neither accepted nor reverted. */
  pendingHunks(currentText: string): ReviewHunk[] {
    return reviewHunks(this.originalText, currentText).filter((hunk) => !this.accepted.has(hunk.key));
  }

  allDecided(currentText: string): boolean {
    return this.pendingHunks(currentText).length === 0;
  }

  /**
   * 'no' when currentText equals the original (the user reverted every block, e.g. emptied a proposed new file);
   * otherwise 'yes', with editedContent iff currentText differs from the model's proposal. A proposal that changes
   * nothing (modelProposal === original) is answered 'yes' while the text is unchanged: there was nothing to reject.
   */
  answerFor(currentText: string): ReviewAnswer {
    if (currentText === this.modelProposalText) return { decision: 'yes' };
    if (currentText === this.originalText) return { decision: 'no' };
    return { decision: 'yes', editedContent: currentText };
  }

  /** The file changed on disk: adopt the new original and model proposal, forget the accepted blocks. */
  reset(init: { original: string; modelProposal: string }): void {
    this.originalText = init.original;
    this.modelProposalText = init.modelProposal;
    this.accepted.clear();
  }
}
