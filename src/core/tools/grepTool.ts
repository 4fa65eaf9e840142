/** grep: regex search over workspace files (a JS implementation; no ripgrep needed). */
import { grepFiles, type SkippedFiles } from './grepFiles';
import { contentMode, type ContextLines, countMode, filesMode, type Page, type PagedOutput } from './grepOutput';
import { buildGrepRegex } from './grepPattern';
import { guarded, succeeded, ToolInputError } from './outcome';
import { optionalBoolean, optionalCount, optionalString, optionalStringList, requiredString } from './toolArgs';
import { stringArgument } from './toolTargets';
import type { ToolDefinition, ToolTargets } from './types';

const DEFAULT_HEAD_LIMIT = 50;
const MAX_HEAD_LIMIT = 1000;
const OUTPUT_MODES = ['content', 'files_with_matches', 'count'] as const;
type OutputMode = (typeof OUTPUT_MODES)[number];

export const grepTool: ToolDefinition = {
  name: 'grep',
  kind: 'readonly',
  parallelSafe: true,
  schema: {
    name: 'grep',
    description:
      'Search file contents with a regular expression. Results are "path:line:text" (already numbered). Honours ' +
      '.gitignore and skips .git, node_modules, binary files and files over 1 MiB. Scope with path/paths, glob and ' +
      'type; output_mode files_with_matches (like -l) or count (like -c); context/before/after (like -C/-B/-A); ' +
      'invert (-v), fixed_string (-F), word (-w), case_insensitive (-i). Paginate with head_limit and offset. Paths ' +
      'are workspace-relative.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'regular expression (Rust/JS syntax; (?i) prefix allowed)' },
        path: { type: 'string', description: 'file or directory to search; default the workspace root' },
        paths: { type: 'array', items: { type: 'string' }, description: 'several files/directories; overrides path' },
        glob: {
          type: ['string', 'array'],
          items: { type: 'string' },
          description: 'file glob(s) to include; prefix with "!" to exclude, e.g. ["**/*.ts", "!**/*.test.ts"]',
        },
        type: { type: 'string', description: 'file type shortcut: ts, js, py, rust, go, java, md, json, …' },
        case_insensitive: { type: 'boolean' },
        output_mode: { type: 'string', enum: [...OUTPUT_MODES], description: 'default content' },
        head_limit: { type: 'integer', description: `max matches (content) or files (other modes); default ${DEFAULT_HEAD_LIMIT}` },
        offset: { type: 'integer', description: 'skip this many matches/files first (pagination)' },
        context: { type: 'integer', description: 'lines before and after each match (content mode)' },
        after: { type: 'integer', description: 'lines after each match' },
        before: { type: 'integer', description: 'lines before each match' },
        invert: { type: 'boolean', description: 'select non-matching lines; with files_with_matches, files without a match' },
        fixed_string: { type: 'boolean', description: 'the pattern is literal text' },
        word: { type: 'boolean', description: 'whole-word matches only' },
      },
      required: ['pattern'],
    },
  },
  targets: grepTargets,
  execute: guarded('grep', async (args, ctx) => {
    const regex = buildGrepRegex(requiredString(args, 'pattern'), {
      fixedString: optionalBoolean(args, 'fixed_string'),
      word: optionalBoolean(args, 'word'),
      caseInsensitive: optionalBoolean(args, 'case_insensitive'),
    });
    const mode = outputMode(args);
    const page = pageOf(args);
    const skipped: SkippedFiles = { count: 0 };
    const selection = {
      roots: searchRoots(args),
      globs: optionalStringList(args, 'glob') ?? [],
      type: optionalString(args, 'type') || undefined,
    };
    const files = grepFiles(ctx.workspace, selection, skipped, ctx.signal);
    const matches = (line: string) => regex.test(line);
    const invert = optionalBoolean(args, 'invert');
    const selects = invert ? (line: string) => !matches(line) : matches;
    let result: PagedOutput;
    if (mode === 'content') result = await contentMode(files, selects, contextOf(args), page);
    else if (mode === 'count') result = await countMode(files, selects, page);
    else result = await filesMode(files, matches, invert, page);
    return succeeded(render(result, mode, page, skipped));
  }),
};

function pageOf(args: Record<string, unknown>): Page {
  const limit = optionalCount(args, 'head_limit') ?? DEFAULT_HEAD_LIMIT;
  return { offset: optionalCount(args, 'offset') ?? 0, limit: Math.min(Math.max(limit, 1), MAX_HEAD_LIMIT) };
}

/** `context` is symmetric; `before`/`after` can widen either side. */
function contextOf(args: Record<string, unknown>): ContextLines {
  const context = optionalCount(args, 'context') ?? 0;
  return {
    before: Math.max(optionalCount(args, 'before') ?? 0, context),
    after: Math.max(optionalCount(args, 'after') ?? 0, context),
  };
}

function outputMode(args: Record<string, unknown>): OutputMode {
  const mode = optionalString(args, 'output_mode') || 'content';
  if (!(OUTPUT_MODES as readonly string[]).includes(mode)) {
    throw new ToolInputError(`output_mode must be one of ${OUTPUT_MODES.join(', ')}`);
  }
  return mode as OutputMode;
}

/** The roots searchRoots reads, without its errors: paths (one string or several) over path, else the workspace root. */
function grepTargets(args: Record<string, unknown>): ToolTargets {
  const listed = typeof args.paths === 'string' ? [args.paths] : Array.isArray(args.paths) ? args.paths : [];
  const paths = listed.filter((p): p is string => typeof p === 'string' && p !== '');
  return { paths: paths.length > 0 ? paths : [stringArgument(args, 'path') || '.'] };
}

function searchRoots(args: Record<string, unknown>): string[] {
  const paths = (optionalStringList(args, 'paths') ?? []).filter((p) => p !== '');
  if (paths.length > 0) return paths;
  return [optionalString(args, 'path') || '.'];
}

function render(result: PagedOutput, mode: OutputMode, page: Page, skipped: SkippedFiles): string {
  const restricted = skipped.restricted
    ? `[${skipped.restricted} restricted file(s) such as .env were not searched; name one in path to search it (asks for approval)]`
    : '';
  if (result.lines.length === 0) {
    const beyond = page.offset > 0 ? ` at offset ${page.offset}` : '';
    const skips = skipped.count > 0 ? ` (${skipped.count} binary or over-1-MiB files were skipped)` : '';
    return `No ${mode === 'content' ? 'matches' : 'files'} found${beyond}${skips}.${restricted ? `\n${restricted}` : ''}`;
  }
  const unit = mode === 'content' ? 'matches' : 'files';
  const next = page.offset + page.limit;
  const more = result.more ? `\n[showing ${unit} ${page.offset + 1}-${next}; more exist: pass offset=${next} to continue]` : '';
  return `${result.lines.join('\n')}${more}${restricted ? `\n${restricted}` : ''}`;
}
