import { formatUsd } from '../../src/shared/costFormat';
import type { SessionState } from '../../src/shared/sessionState';

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 1000) return String(Math.max(0, Math.round(n || 0)));
  if (n < 1_000_000) return `${trimZero((n / 1000).toFixed(n < 10_000 ? 1 : 0))}k`;
  return `${trimZero((n / 1_000_000).toFixed(1))}M`;
}

/** The session's estimate; "+" when some request had no known price (the sum leaves it out). No estimate: none shown. */
export function formatCost(usd: number | undefined, partial = false): string | undefined {
  if (usd === undefined || !Number.isFinite(usd)) return undefined;
  return `${formatUsd(usd)}${partial ? '+' : ''}`;
}

function trimZero(text: string): string {
  return text.replace(/\.0$/, '');
}

/** The context meter: the share of the model's window in use, and a tooltip with the figures. */
export function contextMeterOf(state: SessionState): { pct: number; label: string; title: string } | undefined {
  const ctx = state.context;
  if (!ctx) return undefined;
  const pct = Math.max(0, Math.min(100, Math.round(ctx.pct)));
  const { tokensIn, tokensOut, cachedTokens, costUsd, costUnknown } = state.usage;
  const cost = formatCost(costUsd, costUnknown);
  const title = [
    `Context: ${formatTokens(ctx.tokens)} of ${formatTokens(ctx.window)} tokens (${pct}%)`,
    `Session: ${formatTokens(tokensIn)} in, ${formatTokens(tokensOut)} out, ${formatTokens(cachedTokens)} cached`,
    cost ? `Estimated cost: ${cost}${costUnknown ? ' (some requests had no known price)' : ''}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  return { pct, label: `${pct}%`, title };
}

/** The short usage figures next to the meter: "↑12.3k ↓4k · $0.12". */
export function usageSummary(state: SessionState): string {
  const { tokensIn, tokensOut, costUsd, costUnknown } = state.usage;
  if (tokensIn === 0 && tokensOut === 0) return '';
  const cost = formatCost(costUsd, costUnknown);
  return `↑${formatTokens(tokensIn)} ↓${formatTokens(tokensOut)}${cost ? ` · ${cost}` : ''}`;
}
