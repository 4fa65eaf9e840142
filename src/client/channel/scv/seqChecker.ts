// The session's `seq` check: SCV numbers session-scoped events consecutively, so a jump means lost events and a repeat
// means a duplicated frame.

export interface SeqVerdict {
  /** A duplicate (seq at or below the last one): the event must not be applied again. */
  drop: boolean;
  /** What to log: a duplicate, or a gap (the event itself is still good). */
  log?: string;
}

export class SeqChecker {
  private last: number | undefined;
  /** Unknown events skipped since the last checked one, each of which may have used up one number. */
  private excused = 0;

  check(seq: number): SeqVerdict {
    const last = this.last;
    if (last !== undefined && seq <= last) return { drop: true, log: `SCV duplicate event dropped: seq ${seq} after ${last}` };
    const excused = this.excused;
    this.excused = 0;
    this.last = seq;
    if (last === undefined || seq - last - 1 <= excused) return { drop: false };
    return { drop: false, log: `SCV events lost: expected seq ${last + 1}, got ${seq}` };
  }

  /** An event of a type this client does not know was skipped without a seq of its own. */
  excuseOne(): void {
    this.excused++;
  }
}
