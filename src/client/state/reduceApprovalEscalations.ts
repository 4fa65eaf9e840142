import type { ApprovalEscalations, SessionState } from '../../shared/sessionState';
import { records, str, strings } from './eventFields';
import type { UntrustedEvent } from './eventFields';

const NONE: ApprovalEscalations = { kinds: [], patterns: [] };

/** An escalation as it happens (`approval_changed` after Always / Accept for Session / Allow pattern), any core. */
export function noteEscalation(s: SessionState, e: UntrustedEvent<'approval_changed'>): SessionState {
  const mode = str(e.mode) ?? '';
  const current = s.approvalEscalations ?? NONE;
  const kind = /^([a-z]+):always$/.exec(mode)?.[1];
  if (kind) return current.kinds.includes(kind) ? s : { ...s, approvalEscalations: { ...current, kinds: [...current.kinds, kind] } };
  const tool = str(e.tool);
  if (mode !== 'allow_pattern' || !tool) return s;
  const pattern = str(e.pattern) || '*';
  if (current.patterns.some((p) => p.tool === tool && p.pattern === pattern)) return s;
  return { ...s, approvalEscalations: { ...current, patterns: [...current.patterns, { tool, pattern }] } };
}

/** Our core's list (the answer to list/clear_approval_escalations): it replaces what was seen. */
export function reduceApprovalEscalations(s: SessionState, e: UntrustedEvent<'approval_escalations'>): SessionState {
  const patterns = records(e.patterns).flatMap((p) => {
    const tool = str(p.tool);
    const pattern = str(p.pattern);
    return tool && pattern ? [{ tool, pattern }] : [];
  });
  return { ...s, approvalEscalations: { kinds: strings(e.kinds), patterns } };
}

/** Another session file has escalations of its own (its sidecar); the granted allow rules stay with the core. */
export function forgetSessionEscalations(s: SessionState): SessionState {
  const current = s.approvalEscalations;
  return current?.kinds.length ? { ...s, approvalEscalations: { ...current, kinds: [] } } : s;
}
