/**
 * An `envFile` of an MCP server definition, in the dotenv format VS Code's launch configurations read: `KEY=value`
 * lines, `#` comments, an optional `export `, values in single quotes (literal) or double quotes (`\n` escapes).
 */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!m) continue;
    env[m[1]] = unquote(m[2]);
  }
  return env;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t' })[c] ?? c);
  }
  const comment = value.search(/\s#/);
  return comment < 0 ? value : value.slice(0, comment).trimEnd();
}
