/** Polls `condition` until it returns a truthy value (which is returned) or the timeout passes. */
export async function waitUntil<T>(
  condition: () => T | Promise<T>,
  opts: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<NonNullable<T>> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
      if (error instanceof FatalWaitError) throw error;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${cause}`);
}

/** Thrown from a condition to stop waiting at once. */
export class FatalWaitError extends Error {}
