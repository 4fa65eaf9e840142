// Waiting on processes the test did not spawn (a killed command's grandchildren): their end is no event this process
// can listen to, so their state is polled, with a deadline only so that a broken kill fails instead of hanging.
import { readFileSync } from 'node:fs';

/** Gone, or a zombie nobody has reaped yet (PID 1 in a container may not reap), which is dead all the same. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Polls `condition` every 20 ms; resolves true once it holds, false if it still does not after `timeoutMs`. */
export async function pollUntil(condition: () => boolean, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
