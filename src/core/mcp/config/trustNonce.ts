/**
 * The trust key of a server definition: a hash of its launch configuration as written in its file (command, args,
 * env names and values, envFile path and content, cwd / url, headers, and every other key), before variables are
 * expanded, so an input's or an environment variable's secret value is never hashed, and a changed command, URL or
 * env asks for trust again. Key order does not matter.
 */
import { createHash } from 'node:crypto';

export function trustNonce(definition: unknown, envFileContent?: string): string {
  const canonical = canonicalJson({ definition, envFileContent: envFileContent ?? null });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
