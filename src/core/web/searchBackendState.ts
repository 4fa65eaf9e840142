/**
 * The search APIs' state in one core process, as upstream keeps it: a cooldown per provider after a rate-limit, auth or
 * quota answer, and the round-robin cursor that picks which available provider is tried first.
 */
import type { SearchProvider } from '../../protocol';

export class SearchBackendState {
  private readonly cooldownUntil = new Map<SearchProvider, number>();
  private cursor = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds left of the provider's cooldown (0 when it may be used). */
  cooldownLeft(provider: SearchProvider): number {
    const until = this.cooldownUntil.get(provider) ?? 0;
    return Math.max(0, Math.ceil((until - this.now()) / 1000));
  }

  coolDown(provider: SearchProvider, secs: number): void {
    this.cooldownUntil.set(provider, this.now() + Math.max(1, secs) * 1000);
  }

  /** The providers in this search's order: the cursor's turn first, then the others; the cursor moves on once per search. */
  order(available: readonly SearchProvider[]): SearchProvider[] {
    if (available.length === 0) return [];
    const start = this.cursor++ % available.length;
    return [...available.slice(start), ...available.slice(0, start)];
  }
}
