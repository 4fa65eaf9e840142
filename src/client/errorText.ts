/** What a caught value says, for a log line or a message (a thrown non-Error is stringified). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
