/** Texts cut to a size for events and records: by UTF-8 bytes or by characters, with a mark where cut. */

/** The cap on a subagent step's summary, shared by the child runner and the history that replays it. */
export const SUMMARY_CHARS = 800;
/** What a subagent step's summary says when its child wrote none. */
export const NO_SUMMARY = '(step finished with no written summary)';

/** At most `max` UTF-8 bytes, cut on a character boundary, with `mark` when cut. */
export function capBytes(text: string, max: number, mark = '…'): string {
  if (Buffer.byteLength(text) <= max) return text;
  let cut = Buffer.from(text).subarray(0, max).toString('utf8');
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return cut + mark;
}

export function capChars(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + '…';
}
