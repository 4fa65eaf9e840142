// The session layout is shared with clients; it lives in src/protocol/sessionLayout.ts.
export { fnv1a64Hex, isSessionFileName, sessionsDirFor, timestampedSessionName } from '../../protocol/sessionLayout';

function subMillisecondNanos(): number {
  return Number(process.hrtime.bigint() % 1_000_000n);
}

let lastUnixNanos = 0n;

/** '<unix_nanos>.jsonl', the name upstream's `new_session` uses; strictly increasing within this process. */
export function nanosSessionName(): string {
  let nanos = BigInt(Date.now()) * 1_000_000n + BigInt(subMillisecondNanos());
  if (nanos <= lastUnixNanos) nanos = lastUnixNanos + 1n;
  lastUnixNanos = nanos;
  return `${nanos}.jsonl`;
}
