/**
 * A USD estimate for people: "< $0.01" under a cent, "$0.0123" under a dollar (four decimals: a turn often costs
 * fractions of a cent's tenth), "$1.23" under a thousand, "$1,234" above. Zero is "$0.00": nothing was spent.
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return '$0.00';
  if (usd < 0.01) return '< $0.01';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  if (usd < 1000) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString('en-US')}`;
}
