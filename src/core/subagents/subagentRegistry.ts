import type { ApprovalBroker } from '../approvals/approvalBroker';
import type { ChildScope } from '../runtime/childScope';
import type { RunScope } from '../runtime/runScope';
import type { ChildState, SubagentMode, SubagentRunInfo } from '../agents/subagentHost';

/** Ended runs kept for `status` and `peek`, oldest evicted first (upstream keeps 64). */
export const ENDED_RUNS_KEPT = 64;
/** How many of a run's latest replies and tools `peek` shows. */
export const PEEK_ITEMS = 3;

/** A child run (a subagent, or a batch / chain grouping some) and what the management actions report of it. */
export interface SubagentRun extends SubagentRunInfo {
  readonly scope: ChildScope;
}

export interface NewRun {
  scope: ChildScope;
  /** The agent's name; empty for a batch or chain. */
  agent: string;
  agents: string[];
  mode: SubagentMode;
  task: string;
  resourceLabel?: string;
}

/**
 * The session's subagent runs, by run id: the cancellation tree (`cancelTree`), the parent lookup for nesting, and
 * what the `subagent` tool's management actions (status, interrupt, steer, peek) look at.
 */
export class SubagentRegistry {
  private readonly runs = new Map<string, SubagentRun>();

  add(run: NewRun): SubagentRun {
    const { scope } = run;
    const entry: SubagentRun = {
      scope,
      runId: scope.runId,
      parentRunId: scope.parentRunId,
      agent: run.agent,
      agents: run.agents,
      mode: run.mode,
      task: run.task,
      ...(run.resourceLabel ? { resourceLabel: run.resourceLabel } : {}),
      target: scope.target,
      depth: scope.depth,
      state: 'running',
      startedAt: scope.startedAt,
      lastTurns: [],
      lastTools: [],
      messagesCount: 0,
      estimatedTokens: 0,
    };
    this.runs.set(scope.runId, entry);
    return entry;
  }

  /** The run ended: it is no longer live, and is kept among the last ended ones. */
  end(runId: string, state: ChildState): void {
    const run = this.runs.get(runId);
    if (!run) return;
    run.state = state;
    run.endedAt = Date.now();
    // Re-inserted so that the map's order is the order runs ended in, for the eviction below.
    this.runs.delete(runId);
    this.runs.set(runId, run);
    const ended = [...this.runs.values()].filter((r) => r.endedAt !== undefined);
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_RUNS_KEPT))) this.runs.delete(old.runId);
  }

  get(runId: string): SubagentRun | undefined {
    return this.runs.get(runId);
  }

  /** A run that is still going (running, or paused by an interrupt until it stops). */
  live(runId: string): SubagentRun | undefined {
    const run = this.runs.get(runId);
    return run && run.endedAt === undefined ? run : undefined;
  }

  /** Every known run, live and recently ended. */
  list(): SubagentRun[] {
    return [...this.runs.values()];
  }

  /** Cancels one live run and, through its signal, its subtree; `paused` until it stops. */
  interrupt(broker: ApprovalBroker, runId: string): boolean {
    const run = this.live(runId);
    if (!run) return false;
    run.state = 'paused';
    for (const r of this.list()) if (r.endedAt === undefined && this.descendsFrom(r, runId)) this.stop(broker, r);
    return true;
  }

  /**
   * Cancels every live child of `root` (all of them when `root` is undefined): each one's signal aborts (its stream,
   * its bash process group, its intercom asks), and its pending approvals go stale so a late `approve` cannot
   * authorize a dead child.
   */
  cancelTree(broker: ApprovalBroker, root?: RunScope): SubagentRun[] {
    const cancelled = this.list().filter((r) => r.endedAt === undefined && (!root || r.scope.root === root));
    for (const run of cancelled) this.stop(broker, run);
    return cancelled;
  }

  private stop(broker: ApprovalBroker, run: SubagentRun): void {
    run.scope.cancel();
    if (run.target) broker.markStale(run.target);
  }

  private descendsFrom(run: SubagentRun, ancestor: string): boolean {
    for (let r: SubagentRun | undefined = run; r; r = this.runs.get(r.parentRunId)) if (r.runId === ancestor) return true;
    return false;
  }
}
