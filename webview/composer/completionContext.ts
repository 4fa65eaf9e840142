/**
 * What the composer should complete at the caret: a slash command (`/` at the very start) or a file mention
 * (`@` at the start of a word). Pure text logic; the composer turns it into requests and a popup list.
 */
export interface CompletionContext {
  kind: 'slash' | 'file';
  /** What was typed after the trigger character. */
  query: string;
  /** The range the chosen completion replaces, trigger included. */
  start: number;
  end: number;
}

export function completionContextAt(text: string, caret: number): CompletionContext | undefined {
  const before = text.slice(0, caret);
  // `:` for the skills' `/skill:<name>` entries.
  const slash = /^\/([a-z0-9:_.-]*)$/i.exec(before);
  if (slash) return { kind: 'slash', query: slash[1], start: 0, end: tokenEnd(text, caret) };
  const mention = /(^|\s)@([^\s@]*)$/.exec(before);
  if (mention) {
    const start = caret - mention[2].length - 1;
    return { kind: 'file', query: mention[2], start, end: tokenEnd(text, caret) };
  }
  return undefined;
}

/** The text after replacing the context's range with `insertText` (plus a space when none follows), and the new caret. */
export function applyCompletion(text: string, context: CompletionContext, insertText: string): { text: string; caret: number } {
  const after = text.slice(context.end);
  const spacer = insertText.endsWith(' ') || after.startsWith(' ') ? '' : ' ';
  const inserted = insertText + spacer;
  return { text: text.slice(0, context.start) + inserted + after, caret: context.start + inserted.length };
}

function tokenEnd(text: string, caret: number): number {
  const rest = /^\S*/.exec(text.slice(caret));
  return caret + (rest ? rest[0].length : 0);
}
