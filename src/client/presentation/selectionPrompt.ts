/** Text for the composer: a selection or a file, referenced the way the chat's `@` completion inserts paths. */

export interface SelectionForPrompt {
  /** Workspace-relative, with forward slashes. */
  relativePath: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  languageId: string;
  text: string;
}

export interface LinePosition {
  line: number;
  character: number;
}

/** `@path`, quoted when the path has whitespace so the mention stays one token. */
export function formatPathMention(relativePath: string): string {
  return /\s/.test(relativePath) ? `@"${relativePath}"` : `@${relativePath}`;
}

/**
 * 1-based inclusive line range of a selection. A selection ending at column 0 of a later line (a whole-line
 * selection made with Shift+Down) does not include that line.
 */
export function selectionLineRange(start: LinePosition, end: LinePosition): { startLine: number; endLine: number } {
  const lastLine = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return { startLine: start.line + 1, endLine: lastLine + 1 };
}

/** The mention with its line range, then the code in a fence long enough not to be closed by backticks inside it. */
export function formatSelectionForPrompt(s: SelectionForPrompt): string {
  const range = s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}-${s.endLine}`;
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(s.text) + 1));
  const body = s.text.endsWith('\n') ? s.text : `${s.text}\n`;
  return `${formatPathMention(s.relativePath)}:${range}\n${fence}${fenceLanguage(s.languageId)}\n${body}${fence}\n`;
}

const FENCE_LANGUAGE: Record<string, string> = {
  typescriptreact: 'tsx',
  javascriptreact: 'jsx',
  shellscript: 'bash',
  plaintext: '',
  jsonc: 'json',
};

function fenceLanguage(languageId: string): string {
  const mapped = FENCE_LANGUAGE[languageId] ?? languageId;
  return /^[A-Za-z0-9_+-]*$/.test(mapped) ? mapped : '';
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
