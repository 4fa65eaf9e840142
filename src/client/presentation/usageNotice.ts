import { formatUsd } from '../../shared/costFormat';
import type { SessionState } from '../../shared/sessionState';

const count = (n: number): string => n.toLocaleString('en-US');

/** The one-line answer to `/stats` (the notice): the session's tokens and, when known, what they cost. */
export function usageNotice(u: SessionState['usage']): string {
  const tokens = `Tokens: ${count(u.tokensIn)} in (${count(u.cachedTokens)} cached), ${count(u.tokensOut)} out`;
  return `${tokens}${costPart(u)}.`;
}

function costPart(u: SessionState['usage']): string {
  if (u.costUsd === undefined) return u.costUnknown ? '; cost: price unknown' : '';
  return `; estimated cost ${formatUsd(u.costUsd)}${u.costUnknown ? ' (some requests: price unknown)' : ''}`;
}
