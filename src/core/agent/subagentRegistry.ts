import type { ApprovalBroker } from '../approvals/approvalBroker';
import type { ChildScope } from '../runtime/childScope';
import type { RunScope } from '../runtime/runScope';
import type { SubagentMode } from './subagentHost';

/** A live child run (a subagent, or a batch / chain grouping some). */
export interface LiveChild {
  scope: ChildScope;
  /** The agent's name; empty for a batch or chain. */
  agent: string;
  mode: SubagentMode;
  task: string;
}

/**
 * The session's live child runs, by run id: the cancellation tree (`cancelTree`), the parent lookup for nesting, and
 * what the `subagent` tool's management actions (status, interrupt, steer, peek) look at.
 */
export class SubagentRegistry {
  private readonly live = new Map<string, LiveChild>();

  add(child: LiveChild): void {
    this.live.set(child.scope.runId, child);
  }

  remove(runId: string): void {
    this.live.delete(runId);
  }

  get(runId: string): LiveChild | undefined {
    return this.live.get(runId);
  }

  /** Every live child, in start order. */
  list(): LiveChild[] {
    return [...this.live.values()];
  }

  /**
   * Cancels every child of `root` (all of them when `root` is undefined: reset, new_session, load_session): each
   * one's signal aborts (its stream, its bash process group, its intercom asks), and its pending approvals go stale
   * so a late `approve` cannot authorize a dead child.
   */
  cancelTree(broker: ApprovalBroker, root?: RunScope): LiveChild[] {
    const cancelled = this.list().filter((c) => !root || c.scope.root === root);
    for (const child of cancelled) {
      child.scope.cancel();
      if (child.scope.target) broker.markStale(child.scope.target);
    }
    return cancelled;
  }
}
