/** What the diff editor's title says about a file proposal. */
export interface ProposalTitleParts {
  relPath: string;
  isNewFile: boolean;
  /** The left side is the user's unsaved buffer (after "Merge…"). */
  mergedFromBuffer: boolean;
  /** Who proposes: 'Catalyst' or 'SCV'. */
  proposer: string;
  editable: boolean;
  /** A subagent's proposal: its agent. */
  agent?: string;
}

/** `a.ts ↔ Catalyst proposal`, `a.ts (new file) ↔ Catalyst proposal — worker (subagent)`, `… (read-only)`. */
export function proposalTitle(p: ProposalTitleParts): string {
  const what = p.isNewFile ? `${p.relPath} (new file)` : p.mergedFromBuffer ? `${p.relPath} (your unsaved text)` : p.relPath;
  const by = p.agent ? ` — ${p.agent} (subagent)` : '';
  return `${what} ↔ ${p.proposer} proposal${p.editable ? '' : ' (read-only)'}${by}`;
}
