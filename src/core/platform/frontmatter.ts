/** Flat `key: value` frontmatter (no YAML lists, no nesting), as upstream reads agent, skill and rules files. */

export interface Frontmatter {
  fields: Map<string, string>;
  body: string;
}

/**
 * Without an opening `---` there is no frontmatter (so no name, and the file is skipped). Each line splits at its first
 * `:`; blank lines, `#` comments and lines without a colon (YAML list items) are ignored; one pair of quotes is stripped.
 */
export function parseFrontmatter(content: string): Frontmatter {
  const text = content.replace(/\r\n/g, '\n');
  const fields = new Map<string, string>();
  if (!text.startsWith('---')) return { fields, body: text.trim() };
  const close = text.indexOf('\n---');
  if (close <= 3) return { fields, body: text };
  for (const line of text.slice(4, close).split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    fields.set(line.slice(0, colon).trim(), unquoted(line.slice(colon + 1).trim()));
  }
  return { fields, body: text.slice(close + 4).trim() };
}

function unquoted(value: string): string {
  const quoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0];
  return quoted ? value.slice(1, -1) : value;
}

/** A comma list, items trimmed, empty items dropped. */
export function commaList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
