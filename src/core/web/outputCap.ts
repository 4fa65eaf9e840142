/** The web tools' 24,576-byte cap on what the model reads (upstream's OUT_CAP), keeping the head and the tail. */

export const WEB_OUTPUT_CAP_BYTES = 24_576;

/** The text itself when it fits; else its first 60 % and last 40 % (of what fits) around a marker naming the sizes. */
export function capBytes(text: string, cap: number = WEB_OUTPUT_CAP_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return text;
  const marker = `\n...[truncated: ${bytes.length} bytes -> ${cap} bytes]...\n`;
  const room = Math.max(0, cap - Buffer.byteLength(marker));
  const headBytes = Math.floor(room * 0.6);
  const head = utf8Prefix(bytes, headBytes);
  const tail = utf8Suffix(bytes, room - headBytes);
  return `${head}${marker}${tail}`;
}

/** At most `n` bytes from the start, never splitting a character. */
function utf8Prefix(bytes: Buffer, n: number): string {
  let end = Math.min(n, bytes.length);
  while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** At most `n` bytes from the end, never splitting a character. */
function utf8Suffix(bytes: Buffer, n: number): string {
  let start = Math.max(0, bytes.length - n);
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}
