/** Line helpers shared by the pure edit appliers. A "line" here keeps its terminator ("a\r\n", "b\n", "c"). */

/** Splits text into lines that keep their terminators; "" has no lines. Joining the result gives the text back. */
export function splitLinesKeepEol(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

/** True when the text has CRLF line breaks and no bare LF: the file is consistently CRLF. */
export function isConsistentCrlf(text: string): boolean {
  const crlf = countOf(text, '\r\n');
  return crlf > 0 && crlf === countOf(text, '\n');
}

/** The line break new lines should get: CRLF when most breaks are CRLF, else LF. */
export function dominantEol(text: string): '\n' | '\r\n' {
  const crlf = countOf(text, '\r\n');
  const lf = countOf(text, '\n') - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

export function crlfToLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

export function lfToCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
