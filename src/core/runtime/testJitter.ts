/**
 * Jitter test mode. With `CATALYST_CODE_TEST_JITTER_MS=N` in its environment, every background task of the core — work
 * no command waits for, whose events may arrive at any time (docs/architecture.md, "Event order") — waits a random
 * 0–N ms, or until the next command, before it emits or takes effect: the first rules walk's `rules`, a late `models` after `init`, the price
 * refresh, presence heartbeats, the checkpoint store's compaction, plugin hooks after a turn. A test that assumes such
 * an event lands in some window (`npm run test:stress` runs the core suites with it on) then fails on its first run
 * instead of once in a hundred on a loaded CI machine: a timer alone would rarely hit the few milliseconds of the
 * next command's answer, the command does every time.
 *
 * Unset or not a positive number (the product), `jittered` returns the function it is given (no timer, no extra tick) and
 * `releaseAtCommand` finds nothing held.
 */
export const TEST_JITTER_ENV = 'CATALYST_CODE_TEST_JITTER_MS';

/** The jitter's upper bound in ms from an environment; 0 (off) unless it holds a positive number. */
export function jitterMsFrom(env: NodeJS.ProcessEnv): number {
  const ms = Number(env[TEST_JITTER_ENV]);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

const MAX_JITTER_MS = jitterMsFrom(process.env);

/** The held calls of this process, each released by its timer or by the next command, whichever comes first. */
const held = new Set<() => void>();

/**
 * `fn` itself when jitter is off; otherwise a function whose call is held for a random 0–N ms, or until the core takes
 * its next command (`releaseAtCommand`), whichever comes first — so it lands inside that command's answer, where a
 * helper that assumed otherwise sees it. For the last step of a background task — its emit or its effect — never for
 * anything a command's answer depends on.
 */
export function jittered<A extends unknown[]>(fn: (...args: A) => void, maxMs: number = MAX_JITTER_MS): (...args: A) => void {
  if (maxMs <= 0) return fn;
  return (...args) => {
    const release = (): void => {
      if (!held.delete(release)) return;
      clearTimeout(timer);
      fn(...args);
    };
    const timer = setTimeout(release, Math.random() * maxMs);
    held.add(release);
  };
}

/** Starts `task` after the jitter (at once when it is off): for a background task whose effects have no event to delay. */
export function startJittered<T>(task: () => Promise<T>, maxMs: number = MAX_JITTER_MS): Promise<T> {
  if (maxMs <= 0) return task();
  return new Promise<void>((resolve) => jittered(resolve, maxMs)()).then(task);
}

/** Called as the core starts on a command (main.ts): releases every held call, in jitter mode; nothing otherwise. */
export function releaseAtCommand(): void {
  if (held.size === 0) return;
  for (const release of [...held]) release();
}
