import type { ApprovalEscalations } from './sessionState';

export interface EscalationLine {
  label: string;
  description: string;
}

const KIND_LABELS: Readonly<Record<string, string>> = {
  destructive: 'Destructive tools (edits, deletes, shell commands)',
  readonly: 'Read-only tools',
};

/** The escalations as the approval-mode pickers show them: each kind approved "Always", then each granted allow rule. */
export function escalationLines(escalations: ApprovalEscalations | undefined): EscalationLine[] {
  if (!escalations) return [];
  return [
    ...escalations.kinds.map((kind) => ({ label: KIND_LABELS[kind] ?? `${kind} tools`, description: 'Always' })),
    ...escalations.patterns.map((p) => ({
      label: p.pattern === '*' ? `${p.tool}: every call` : `${p.tool}: ${p.pattern}`,
      description: p.pattern === '*' ? 'Accept for Session' : 'Allow pattern',
    })),
  ];
}
