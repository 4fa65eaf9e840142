// Pending approval requests: each waits for an `approve` command, its expiry (15 min by
// default, research §4.6) or the cancellation of its run.

import type { ApprovalDecision } from '../../protocol';

export interface PendingApproval {
  requestId: string;
  toolCallId: string;
  tool: string;
  runId: string;
  target?: string;
  /** Epoch ms; the expiry counts from here. */
  createdAt: number;
}

export interface ApprovalAnswer {
  decision: ApprovalDecision;
  pattern?: string;
  editedContent?: string;
  expired?: boolean;
  cancelled?: boolean;
}

export type AnswerResult = { ok: true } | { ok: false; message: string };

export const DEFAULT_APPROVAL_TIMEOUT_MS = 15 * 60 * 1000;
const MAX_REMEMBERED = 1024;

export interface ApprovalBrokerOptions {
  timeoutMs?: number;
  onExpired: (p: PendingApproval) => void;
  now?: () => number;
  /** The expiry timer of each pending approval (default: setTimeout / clearTimeout). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

interface Waiter {
  approval: PendingApproval;
  settled: boolean;
  finish: (a: ApprovalAnswer) => void;
}

export class ApprovalBroker {
  private readonly timeoutMs: number;
  private readonly onExpired: (p: PendingApproval) => void;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private seq = 0;
  private readonly pending = new Map<string, Waiter>();
  /** Cancelled runs: a request they still make ends at once. */
  private readonly staleRuns = new BoundedSet(MAX_REMEMBERED);

  constructor(opts: ApprovalBrokerOptions) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.onExpired = opts.onExpired;
    this.now = opts.now ?? Date.now;
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  nextRequestId(toolCallId: string): string {
    return `apv-${++this.seq}-${toolCallId}`;
  }

  /** Resolves with the user's answer, `{decision:'no', expired:true}` or `{decision:'no', cancelled:true}`; never rejects. */
  wait(p: PendingApproval, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.pending.has(p.requestId)) throw new Error(`approval request ${p.requestId} is already pending`);
    return new Promise<ApprovalAnswer>((resolve) => {
      if (signal.aborted || this.staleRuns.has(p.runId)) {
        resolve({ decision: 'no', cancelled: true });
        return;
      }
      const onAbort = () => waiter.finish({ decision: 'no', cancelled: true });
      const waiter: Waiter = {
        approval: p,
        settled: false,
        finish: (a) => {
          if (waiter.settled) return;
          waiter.settled = true;
          if (this.pending.get(p.requestId) === waiter) this.pending.delete(p.requestId);
          this.clearTimer(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
      };
      this.pending.set(p.requestId, waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      const delay = Math.max(0, p.createdAt + this.timeoutMs - this.now());
      const timer = this.setTimer(() => this.expire(waiter), delay);
    });
  }

  /**
   * A request that no longer waits — answered, expired, or ended with its cancelled run — is upstream's "unknown,
   * expired, or already resolved" (its waiter leaves the pending map as soon as its run is cancelled, as ours does).
   */
  answer(requestId: string, a: Omit<ApprovalAnswer, 'expired' | 'cancelled'>): AnswerResult {
    const waiter = this.pending.get(requestId);
    if (!waiter) return { ok: false, message: `unknown, expired, or already resolved approval request: ${requestId}` };
    const answer: ApprovalAnswer = { decision: a.decision };
    if (a.pattern !== undefined) answer.pattern = a.pattern;
    if (a.editedContent !== undefined) answer.editedContent = a.editedContent;
    waiter.finish(answer);
    return { ok: true };
  }

  /** The run was cancelled: its pending approvals end as cancelled, and any request it still makes ends at once. */
  markStale(runId: string): void {
    this.staleRuns.add(runId);
    for (const waiter of [...this.pending.values()])
      if (waiter.approval.runId === runId) waiter.finish({ decision: 'no', cancelled: true });
  }

  /** Ends every pending approval as cancelled and clears its timer (shutdown). */
  cancelAll(): void {
    for (const waiter of [...this.pending.values()]) waiter.finish({ decision: 'no', cancelled: true });
  }

  pendingCount(): number {
    return this.pending.size;
  }

  private expire(waiter: Waiter): void {
    if (waiter.settled) return;
    // Removed before onExpired so that an answer arriving from inside the callback is already refused.
    this.pending.delete(waiter.approval.requestId);
    try {
      this.onExpired(waiter.approval);
    } finally {
      waiter.finish({ decision: 'no', expired: true });
    }
  }
}

/** An insertion-ordered set that forgets its oldest entries beyond `max`. */
class BoundedSet {
  private readonly items = new Set<string>();
  constructor(private readonly max: number) {}
  add(v: string): void {
    this.items.delete(v);
    this.items.add(v);
    if (this.items.size > this.max) {
      const oldest = this.items.values().next().value;
      if (oldest !== undefined) this.items.delete(oldest);
    }
  }
  has(v: string): boolean {
    return this.items.has(v);
  }
}
