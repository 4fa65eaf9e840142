/**
 * memory: the model's access to the durable memories of the system prompt, with upstream's argument shape. This
 * core's store keeps plain notes (text, tags, scope), so the actions it can honestly do are save, append, list, get
 * and forget; upstream's others are answered as unsupported.
 */
import type { MemoryEntry, MemoryScope } from '../memory/memoryStore';
import { failed, guarded, succeeded, ToolInputError } from './outcome';
import { optionalString, requiredString } from './toolArgs';
import { noTargets } from './toolTargets';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

const SUPPORTED = ['save', 'append', 'list', 'get', 'forget'] as const;
const UPSTREAM_ONLY = ['consolidate', 'stats', 'deprecate', 'migrate'];
const PREVIEW_CHARS = 100;

type Args = Record<string, unknown>;

export const memoryTool: ToolDefinition = {
  name: 'memory',
  kind: 'readonly',
  schema: {
    name: 'memory',
    description:
      'Save, list, get or forget durable memories (workspace scope by default; scope:global for every project). Saved ' +
      'memories appear in your system prompt from the next request on. Keep them short, durable facts (conventions, ' +
      'decisions, user preferences), not trivia; prefer append to an existing memory (by name) over a new save. ' +
      'This core supports save, append, list, get and forget.',
    parameters: {
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: [...SUPPORTED, ...UPSTREAM_ONLY],
          description: `${SUPPORTED.join('/')}; the others are not supported by this core`,
        },
        scope: {
          type: 'string',
          enum: ['workspace', 'global'],
          description: "'workspace' (default for save) or 'global'; for list/get/forget, omit to search both",
        },
        name: { type: 'string', description: '(save/append) short memory name, kept as a tag; append, get and forget find a memory by it' },
        content: { type: 'string', description: '(save) the memory body, (append) the facts to add to it' },
        type: { type: 'string', description: '(save/append) memory type, e.g. note/convention/decision/user, kept as a tag' },
        id: { type: 'string', description: '(get/forget) the memory id (or its name)' },
      },
      required: ['action'],
    },
  },
  targets: noTargets,
  execute: guarded('memory', async (args, ctx) => {
    const action = requiredString(args, 'action');
    switch (action) {
      case 'save':
        return save(args, ctx);
      case 'append':
        return append(args, ctx);
      case 'list':
        return list(args, ctx);
      case 'get':
        return get(args, ctx);
      case 'forget':
        return forget(args, ctx);
      default:
        return failed(
          UPSTREAM_ONLY.includes(action)
            ? `memory action '${action}' is not supported by this core; it supports ${SUPPORTED.join(', ')}`
            : `unknown memory action '${action}'; this core supports ${SUPPORTED.join(', ')}`,
        );
    }
  }),
};

function save(args: Args, ctx: ToolContext): ToolOutcome {
  const content = requiredString(args, 'content');
  const scope = scopeOf(args) ?? 'workspace';
  const tags = [optionalString(args, 'name'), optionalString(args, 'type')].filter((tag): tag is string => !!tag?.trim());
  const entry = ctx.memory.save(content, tags, scope);
  return succeeded(`saved memory ${entry.id} (${scope})`);
}

/** Adds the facts to the memory of that name (a new one when there is none); its id changes with its text. */
function append(args: Args, ctx: ToolContext): ToolOutcome {
  const name = requiredString(args, 'name');
  const content = requiredString(args, 'content');
  const existing = inScope(ctx.memory.list(), scopeOf(args)).find((e) => e.tags.includes(name) || e.id === name);
  if (!existing) return save(args, ctx);
  ctx.memory.forget(existing.id, existing.scope);
  const entry = ctx.memory.save(`${existing.text}\n${content}`, existing.tags, existing.scope);
  return succeeded(`appended to memory ${name}: now ${entry.id} (${entry.scope})`);
}

function list(args: Args, ctx: ToolContext): ToolOutcome {
  const entries = inScope(ctx.memory.list(), scopeOf(args));
  if (entries.length === 0) return succeeded('No memories saved.');
  return succeeded(
    entries.map((e) => `- ${e.id} [${e.scope}${e.tags.length ? `; ${e.tags.join(', ')}` : ''}]: ${preview(e.text)}`).join('\n'),
  );
}

function get(args: Args, ctx: ToolContext): ToolOutcome {
  const entry = find(args, ctx);
  return entry ? succeeded(entry.text) : failed(`no memory with id '${requiredString(args, 'id')}'`);
}

function forget(args: Args, ctx: ToolContext): ToolOutcome {
  const entry = find(args, ctx);
  if (!entry || !ctx.memory.forget(entry.id, entry.scope)) return failed(`no memory with id '${requiredString(args, 'id')}'`);
  return succeeded(`forgot memory ${entry.id} (${entry.scope})`);
}

function find(args: Args, ctx: ToolContext): MemoryEntry | undefined {
  const id = requiredString(args, 'id');
  const entries = inScope(ctx.memory.list(), scopeOf(args));
  return entries.find((e) => e.id === id) ?? entries.find((e) => e.tags.includes(id));
}

function scopeOf(args: Args): MemoryScope | undefined {
  const scope = optionalString(args, 'scope');
  if (scope === undefined || scope === 'workspace' || scope === 'global') return scope;
  throw new ToolInputError("'scope' must be 'workspace' or 'global'");
}

function inScope(entries: MemoryEntry[], scope: MemoryScope | undefined): MemoryEntry[] {
  return scope ? entries.filter((e) => e.scope === scope) : entries;
}

function preview(text: string): string {
  const line = text.split('\n')[0];
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}
