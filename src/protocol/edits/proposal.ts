import { createHash } from 'node:crypto';
import { applyEdits, type EditSpec } from './editApply';
import { applyUnifiedPatch } from './patchApply';

/**
 * What a file tool's call would make of a file, from the call's full arguments and the file's current text (null when
 * it does not exist). The core uses it to preview and apply; a client uses it to rebuild the proposed content for a
 * diff editor from the `tool_call` that precedes an `approval_request` — the same semantics on both sides.
 *
 * `FileProposalTool` names the Catalyst tools (write_file, edit, patch), which the embedded core implements.
 * `write` is SCV's only file tool, `{path, content, mode: "create"|"replace", expected_sha256?}`: whole-file, and it
 * fails where SCV's fails (create on an existing file, replace on a missing one, a file changed since the model read it).
 */
export type FileProposalTool = 'write_file' | 'edit' | 'patch';
export type ScvFileTool = 'write';
export type AnyFileProposalTool = FileProposalTool | ScvFileTool;
export type ProposalResult = { ok: true; content: string } | { ok: false; error: string };

export function isFileProposalTool(name: string): name is FileProposalTool {
  return name === 'write_file' || name === 'edit' || name === 'patch';
}

/** Any tool whose proposal can be reviewed as a file change: Catalyst's three and SCV's `write`. */
export function isAnyFileProposalTool(name: string): name is AnyFileProposalTool {
  return isFileProposalTool(name) || name === 'write';
}

export function proposeFileContent(
  tool: AnyFileProposalTool,
  args: Record<string, unknown>,
  oldContent: string | null,
  displayPath = String(args.path ?? 'the file'),
): ProposalResult {
  switch (tool) {
    case 'write_file':
      return typeof args.content === 'string'
        ? { ok: true, content: args.content }
        : { ok: false, error: "'content' is required and must be a string" };
    case 'edit': {
      const edits = parseEditSpecs(args.edits);
      if (!Array.isArray(edits)) return { ok: false, error: edits };
      if (oldContent === null) return { ok: false, error: `${displayPath} does not exist; use write_file to create it` };
      return applyEdits(oldContent, edits);
    }
    case 'patch': {
      if (typeof args.patch !== 'string') return { ok: false, error: "'patch' is required and must be a string" };
      if (args.patch === '') return { ok: false, error: "'patch' must not be empty" };
      return applyUnifiedPatch(oldContent ?? '', args.patch);
    }
    case 'write':
      return proposeScvWrite(args, oldContent, displayPath);
  }
}

function proposeScvWrite(args: Record<string, unknown>, oldContent: string | null, displayPath: string): ProposalResult {
  if (typeof args.content !== 'string') return { ok: false, error: "'content' is required and must be a string" };
  if (args.mode !== 'create' && args.mode !== 'replace') return { ok: false, error: `'mode' must be "create" or "replace"` };
  if (args.mode === 'create' && oldContent !== null) {
    return { ok: false, error: `${displayPath} already exists, and SCV's write with mode "create" fails on an existing file` };
  }
  if (args.mode === 'replace' && oldContent === null) {
    return { ok: false, error: `${displayPath} does not exist, and SCV's write with mode "replace" fails on a missing file` };
  }
  const expected = args.expected_sha256;
  if (expected !== undefined && expected !== null) {
    if (typeof expected !== 'string' || !/^[0-9a-fA-F]{64}$/.test(expected))
      return { ok: false, error: "'expected_sha256' must be a hex SHA-256" };
    if (oldContent !== null && sha256Hex(oldContent) !== expected.toLowerCase()) {
      return {
        ok: false,
        error: `${displayPath} changed since the model read it (its SHA-256 no longer matches expected_sha256), so SCV would refuse this write`,
      };
    }
  }
  return { ok: true, content: args.content };
}

/** SCV hashes the file's bytes; the text here is the file decoded as UTF-8, so its UTF-8 encoding is those bytes. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Validates the `edits` argument of the edit tool; returns the specs or an error message. */
export function parseEditSpecs(value: unknown): EditSpec[] | string {
  if (!Array.isArray(value) || value.length === 0) return "'edits' is required and must be a non-empty array of {search, replace}";
  const specs: EditSpec[] = [];
  for (let i = 0; i < value.length; i++) {
    const spec = parseEditSpec(value[i], i + 1);
    if (typeof spec === 'string') return spec;
    specs.push(spec);
  }
  return specs;
}

function parseEditSpec(item: unknown, number: number): EditSpec | string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return `edit ${number}: must be an object {search, replace}`;
  const { search, replace, replace_all, normalize_whitespace } = item as Record<string, unknown>;
  if (typeof search !== 'string') return `edit ${number}: 'search' must be a string`;
  if (typeof replace !== 'string') return `edit ${number}: 'replace' must be a string (use "" to delete)`;
  for (const [key, flag] of [
    ['replace_all', replace_all],
    ['normalize_whitespace', normalize_whitespace],
  ] as const) {
    if (flag !== undefined && flag !== null && typeof flag !== 'boolean') return `edit ${number}: '${key}' must be a boolean`;
  }
  return { search, replace, replace_all: replace_all === true, normalize_whitespace: normalize_whitespace === true };
}
