import { REDACTED } from './redact';

/**
 * Scrubs secrets out of one stream of text chunks (a reply's `delta`s, its `thinking`, one tool call's streamed
 * arguments) where a secret may be split across chunks, so matching each chunk alone would miss it.
 *
 * Each `push` returns the text that is safe to show now and holds back the shortest tail that could still become a
 * secret (the longest suffix that is a proper prefix of one); the held text goes out with the next chunk, or with
 * `flush()` when the stream ends. The result is independent of how the text was chunked: the concatenated output is
 * always the whole text scrubbed leftmost-longest, so nothing is lost, reordered or duplicated. With no secret configured
 * nothing is ever held.
 */
export class StreamRedactor {
  private held = '';

  /** `needles`: the strings to hide now (SecretScrubber.needles()); read at every push, so a key set mid-stream counts. */
  constructor(private readonly needles: () => readonly string[]) {}

  /** The text held back, waiting for the next chunk or the flush. */
  get pending(): string {
    return this.held;
  }

  push(chunk: string): string {
    return this.process(this.held + chunk, false);
  }

  /** Ends the stream: returns whatever was held, scrubbed (a held prefix that never completed is ordinary text). */
  flush(): string {
    if (!this.held) return '';
    return this.process(this.held, true);
  }

  private process(buf: string, final: boolean): string {
    this.held = '';
    const needles = this.needles();
    if (needles.length === 0 || buf === '') return buf;
    let out = '';
    let i = 0;
    for (;;) {
      const match = earliestMatch(buf, i, needles);
      const hold = final ? -1 : earliestHold(buf, i, match ? match.at : buf.length - 1, needles);
      // At the same position a hold wins: a longer secret may still complete there.
      if (hold >= 0 && (!match || hold <= match.at)) {
        this.held = buf.slice(hold);
        return out + buf.slice(i, hold);
      }
      if (!match) return out + buf.slice(i);
      out += buf.slice(i, match.at) + REDACTED;
      i = match.at + match.length;
    }
  }
}

/** The leftmost occurrence of any needle at or after `from`; among those starting there, the longest. */
function earliestMatch(buf: string, from: number, needles: readonly string[]): { at: number; length: number } | undefined {
  let best: { at: number; length: number } | undefined;
  for (const n of needles) {
    const at = buf.indexOf(n, from);
    if (at >= 0 && (!best || at < best.at || (at === best.at && n.length > best.length))) best = { at, length: n.length };
  }
  return best;
}

/** The leftmost k in [from, upTo] such that buf.slice(k) is a proper prefix of some needle, or -1. */
function earliestHold(buf: string, from: number, upTo: number, needles: readonly string[]): number {
  let maxLen = 0;
  for (const n of needles) maxLen = Math.max(maxLen, n.length);
  const last = Math.min(upTo, buf.length - 1);
  for (let k = Math.max(from, buf.length - maxLen + 1); k <= last; k++) {
    const c = buf.charCodeAt(k);
    const tail = buf.length - k;
    for (const n of needles) {
      if (n.length > tail && n.charCodeAt(0) === c && n.startsWith(buf.slice(k))) return k;
    }
  }
  return -1;
}
