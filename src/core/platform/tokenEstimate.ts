/** A provider-independent token estimate (about 4 characters a token) for context figures before usage is known. */
export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.ceil(text.length / 4);
}
