/**
 * Variable expansion in MCP server definitions, in the two dialects users' files are written in:
 * - VS Code's (`.vscode/mcp.json`, the user mcp.json, `.cursor/mcp.json`, our own file): `${workspaceFolder}`,
 *   `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` / `${/}`, `${env:NAME}` (unset → empty, as VS
 *   Code), `${input:id}` (from the values the user gave; a missing one is left in place and reported). Any other
 *   `${…}` (`${command:…}`, `${config:…}`) is left in place and reported as unsupported.
 * - Claude Code's (`.mcp.json`): `${VAR}` and `${VAR:-default}` from the environment; an unset `${VAR}` without a
 *   default stays literal, `$VAR` never expands.
 */
import { basename, sep } from 'node:path';

export interface VariableContext {
  workspaceFolder: string;
  userHome: string;
  env: Record<string, string | undefined>;
  inputs: Record<string, string>;
}

/** What an expansion met besides plain substitutions. */
export interface ExpansionNotes {
  /** `${input:id}` ids without a value yet. */
  missingInputs: Set<string>;
  /** Variables we do not resolve, as written (`${command:x}`). */
  unsupported: Set<string>;
}

export type VariableDialect = 'vscode' | 'claude';

export function newExpansionNotes(): ExpansionNotes {
  return { missingInputs: new Set(), unsupported: new Set() };
}

export function expandVariables(text: string, dialect: VariableDialect, ctx: VariableContext, notes: ExpansionNotes): string {
  return dialect === 'claude' ? expandClaude(text, ctx.env) : expandVscode(text, ctx, notes);
}

function expandVscode(text: string, ctx: VariableContext, notes: ExpansionNotes): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
    switch (inner) {
      case 'workspaceFolder':
        return ctx.workspaceFolder;
      case 'workspaceFolderBasename':
        return basename(ctx.workspaceFolder);
      case 'userHome':
        return ctx.userHome;
      case 'pathSeparator':
      case '/':
        return sep;
    }
    const colon = inner.indexOf(':');
    const scheme = colon < 0 ? '' : inner.slice(0, colon);
    const arg = inner.slice(colon + 1);
    if (scheme === 'env') return ctx.env[arg] ?? '';
    if (scheme === 'input') {
      if (Object.hasOwn(ctx.inputs, arg)) return ctx.inputs[arg];
      notes.missingInputs.add(arg);
      return whole;
    }
    notes.unsupported.add(whole);
    return whole;
  });
}

function expandClaude(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    return value ?? whole;
  });
}

/** The `${input:id}` ids a text refers to, without resolving anything. */
export function inputReferences(text: string): string[] {
  return [...text.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1]);
}
