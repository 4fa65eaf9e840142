import type { RulesFileInfo, RulesSkippedFile } from '../../protocol';
import type { RulesFileView, SessionState } from '../../shared/sessionState';
import { bool, num, records, str, strings, type Untrusted, type UntrustedEvent } from './eventFields';

/** At most this many files are kept for the header's list (a core caps them lower; another core might not). */
const MAX_FILES = 200;

/** `rules` (ours): the project rules files in the system prompt, replacing the previous list. */
export function reduceRules(s: SessionState, e: UntrustedEvent<'rules'>): SessionState {
  const files = records<RulesFileInfo>(e.files)
    .map(fileView)
    .filter((f): f is RulesFileView => f !== undefined)
    .slice(0, MAX_FILES);
  const skipped = records<RulesSkippedFile>(e.skipped).length;
  const disabled = strings(e.disabled);
  if (s.rules && sameRules(s.rules, files, skipped, disabled)) return s;
  return { ...s, rules: { files, skipped, disabled } };
}

function fileView(f: Untrusted<RulesFileInfo>): RulesFileView | undefined {
  const path = str(f.path);
  if (!path) return undefined;
  return {
    path: path.slice(0, 1000),
    source: str(f.source) ?? '',
    bytes: num(f.bytes) ?? 0,
    tokens: num(f.tokens) ?? 0,
    truncated: bool(f.truncated) ?? false,
    scope: str(f.scope) ?? '.',
  };
}

function sameRules(a: NonNullable<SessionState['rules']>, files: RulesFileView[], skipped: number, disabled: string[]): boolean {
  return (
    a.skipped === skipped &&
    a.disabled.join('\n') === disabled.join('\n') &&
    a.files.length === files.length &&
    a.files.every((f, i) => JSON.stringify(f) === JSON.stringify(files[i]))
  );
}
