/** The `edit` tool's semantics: ordered search/replace edits applied to one file's content, all or nothing. */
import { crlfToLf, isConsistentCrlf, lfToCrlf } from './lines';
import { findExactSpans, findNormalizedSpans, type Span } from './textMatch';

export interface EditSpec {
  search: string;
  replace: string;
  replace_all?: boolean;
  normalize_whitespace?: boolean;
}

export type EditResult = { ok: true; content: string } | { ok: false; error: string };

/**
 * Applies `edits` in order to the evolving content. Each search must be non-empty and match exactly once unless
 * `replace_all`. A consistently-CRLF file is edited in LF form and written back as CRLF, so searches written with
 * LF still match and the file keeps its line endings.
 */
export function applyEdits(content: string, edits: EditSpec[]): EditResult {
  if (edits.length === 0) return { ok: false, error: 'no edits given' };
  const conflict = findReplaceAllConflict(edits);
  if (conflict) return { ok: false, error: conflict };
  const crlf = isConsistentCrlf(content);
  let working = crlf ? crlfToLf(content) : content;
  for (let i = 0; i < edits.length; i++) {
    const edit = crlf ? withLfLineEndings(edits[i]) : edits[i];
    const result = applyOneEdit(working, edit, i + 1);
    if (!result.ok) return result;
    working = result.content;
  }
  return { ok: true, content: crlf ? lfToCrlf(working) : working };
}

/**
 * A replace_all runs on the evolved content, so it would also rewrite text an earlier edit just inserted. Upstream
 * (plan_edit) rejects such a batch rather than silently corrupting the insertion; so do we.
 */
function findReplaceAllConflict(edits: EditSpec[]): string | undefined {
  for (let i = 0; i < edits.length; i++) {
    const { search, replace_all } = edits[i];
    if (!replace_all || search === '') continue;
    for (let j = 0; j < i; j++) {
      if (edits[j].replace.includes(search)) {
        return (
          `edit ${i + 1}: its replace_all search ${quote(search)} also appears in edit ${j + 1}'s replacement, and ` +
          `replace_all would rewrite that inserted text too. Split the batch: do the replace_all in its own call first.`
        );
      }
    }
  }
  return undefined;
}

function applyOneEdit(content: string, edit: EditSpec, editNumber: number): EditResult {
  if (edit.search === '') {
    return { ok: false, error: `edit ${editNumber}: search is empty (use write_file to create or replace a whole file)` };
  }
  const spans = edit.normalize_whitespace ? findNormalizedSpans(content, edit.search) : findExactSpans(content, edit.search);
  if (spans.length === 0) return { ok: false, error: notFoundMessage(content, edit, editNumber) };
  if (spans.length > 1 && !edit.replace_all) {
    return {
      ok: false,
      error:
        `edit ${editNumber}: search text found ${spans.length} times; include more surrounding lines so it matches ` +
        `exactly once, or set replace_all: true. Search was: ${quote(edit.search)}`,
    };
  }
  return { ok: true, content: replaceSpans(content, spans, edit.replace) };
}

function replaceSpans(content: string, spans: Span[], replacement: string): string {
  let result = '';
  let copiedUpTo = 0;
  for (const [start, end] of spans) {
    result += content.slice(copiedUpTo, start) + replacement;
    copiedUpTo = end;
  }
  return result + content.slice(copiedUpTo);
}

function notFoundMessage(content: string, edit: EditSpec, editNumber: number): string {
  let message = `edit ${editNumber}: search text not found`;
  if (edit.normalize_whitespace && edit.search.trim() === '') {
    return `${message} (it is only whitespace, which normalize_whitespace ignores)`;
  }
  message += `; re-read the file and copy the exact text. Search was: ${quote(edit.search)}`;
  if (!edit.normalize_whitespace && findNormalizedSpans(content, edit.search).length > 0) {
    message += '\nIt does match when whitespace is ignored: fix the indentation or set normalize_whitespace: true.';
  } else {
    const hint = closestLineHint(content, edit.search);
    if (hint) message += `\n${hint}`;
  }
  return message;
}

/** Points the model at the line sharing the most words with the search's first non-blank line. */
function closestLineHint(content: string, search: string): string | undefined {
  const firstLine = search.split('\n').find((line) => line.trim() !== '');
  if (!firstLine) return undefined;
  const wanted = new Set(firstLine.trim().split(/\s+/));
  let best: { lineNumber: number; line: string; shared: number } | undefined;
  content.split('\n').forEach((line, index) => {
    const shared = line
      .trim()
      .split(/\s+/)
      .filter((word) => wanted.has(word)).length;
    if (shared > 0 && (!best || shared > best.shared)) best = { lineNumber: index + 1, line, shared };
  });
  if (!best) return undefined;
  return `Closest line: ${best.lineNumber}: ${best.line.trim().slice(0, 160)}`;
}

function withLfLineEndings(edit: EditSpec): EditSpec {
  return { ...edit, search: crlfToLf(edit.search), replace: crlfToLf(edit.replace) };
}

function quote(text: string): string {
  const shown = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return JSON.stringify(shown);
}
