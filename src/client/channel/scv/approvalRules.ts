// The user's "allow for this session" and "always allow" answers for an SCV server, which itself only decides per call.

export type ApprovalRuleScope = 'session' | 'always';

/**
 * Rules keyed by tool name and SCV risk. A later `approval.requested` that matches one is answered by the adapter. The
 * SessionController keeps one instance for its lifetime: `always` rules survive server restarts, `session` rules last
 * for one server connection (`startConnection` clears them).
 */
export class ApprovalRules {
  private readonly always = new Set<string>();
  private readonly session = new Set<string>();

  remember(scope: ApprovalRuleScope, tool: string, risk: string): void {
    (scope === 'always' ? this.always : this.session).add(ruleKey(tool, risk));
  }

  /** The scope of the rule that allows this call, the broader one first; undefined when none does. */
  match(tool: string, risk: string): ApprovalRuleScope | undefined {
    const key = ruleKey(tool, risk);
    if (this.always.has(key)) return 'always';
    if (this.session.has(key)) return 'session';
    return undefined;
  }

  /** A new server connection is a new session: its "allow for this session" rules start empty. */
  startConnection(): void {
    this.session.clear();
  }

  get size(): number {
    return this.always.size + this.session.size;
  }
}

function ruleKey(tool: string, risk: string): string {
  return JSON.stringify([tool, risk]);
}
