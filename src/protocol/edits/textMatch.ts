/**
 * Finding the places an `edit` search applies: exact matches, or whitespace-tolerant ones for `normalize_whitespace`,
 * where both texts are compared with every run of whitespace collapsed to one space (ends trimmed) and each match is
 * mapped back to offsets in the ORIGINAL content so the replacement edits the real text.
 */

interface NormalizedText {
  text: string;
  /** offsets[k] = index in the source of the k-th character of `text`. */
  offsets: number[];
}

export type Span = readonly [start: number, end: number];

export function normalizeWhitespace(source: string): NormalizedText {
  let text = '';
  const offsets: number[] = [];
  let inWhitespace = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      if (!inWhitespace && text !== '') {
        text += ' ';
        offsets.push(i);
      }
      inWhitespace = true;
    } else {
      text += ch;
      offsets.push(i);
      inWhitespace = false;
    }
  }
  if (text.endsWith(' ')) {
    text = text.slice(0, -1);
    offsets.pop();
  }
  return { text, offsets };
}

/** Non-overlapping matches of `search` in `content`, whitespace-collapsed, as [start, end) spans of `content`. */
export function findNormalizedSpans(content: string, search: string): Span[] {
  const needle = normalizeWhitespace(search).text;
  if (needle === '') return [];
  const haystack = normalizeWhitespace(content);
  const spans: Span[] = [];
  for (let at = haystack.text.indexOf(needle); at !== -1; at = haystack.text.indexOf(needle, at + needle.length)) {
    // The needle is trimmed, so its first and last characters are real (non-whitespace) source characters.
    spans.push([haystack.offsets[at], haystack.offsets[at + needle.length - 1] + 1]);
  }
  return spans;
}

/** Non-overlapping exact matches of `search` in `content`. */
export function findExactSpans(content: string, search: string): Span[] {
  if (search === '') return [];
  const spans: Span[] = [];
  for (let at = content.indexOf(search); at !== -1; at = content.indexOf(search, at + search.length)) {
    spans.push([at, at + search.length]);
  }
  return spans;
}
