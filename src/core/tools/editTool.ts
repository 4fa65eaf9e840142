import { executeFileEdit } from './fileEditExecution';
import { guarded } from './outcome';
import { pathArguments } from './toolTargets';
import type { ToolDefinition } from './types';

/** The `edits` argument of edit, and of each file of bulk_edit: search/replace pairs applied in order. */
export const SEARCH_REPLACE_EDITS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      search: { type: 'string', description: 'exact text to find; unique unless replace_all' },
      replace: { type: 'string', description: 'replacement text ("" deletes)' },
      replace_all: { type: 'boolean', description: 'replace every occurrence' },
      normalize_whitespace: { type: 'boolean', description: 'match with whitespace collapsed' },
    },
    required: ['search', 'replace'],
  },
} as const;

export const editTool: ToolDefinition = {
  name: 'edit',
  kind: 'destructive',
  pathRules: true,
  worktreeUnprompted: true,
  schema: {
    name: 'edit',
    description:
      'Search/replace edits to one file, applied in order and all-or-nothing. Read the file first: each search must ' +
      'match the current text exactly and only once (or set replace_all). An empty replace deletes. ' +
      'normalize_whitespace matches with whitespace runs collapsed, to tolerate indentation drift.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        edits: SEARCH_REPLACE_EDITS_SCHEMA,
      },
      required: ['path', 'edits'],
    },
  },
  targets: pathArguments('path'),
  execute: guarded('edit', (args, ctx) => executeFileEdit('edit', args, ctx)),
};
