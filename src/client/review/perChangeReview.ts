import type { CoreKind } from '../../shared/sessionState';

/**
 * Why per-change review and editing of a proposal are off: the core takes no edited content (capability
 * approval_edited_content), so only the proposal as a whole can be accepted or rejected.
 */
export function perChangeOffReason(kind: CoreKind): string {
  return kind === 'scv' ? 'SCV servers accept or reject a proposal as a whole' : 'this core cannot apply an edited proposal';
}
