import { readFileSync, statSync } from 'node:fs';
import { resolveWorkspacePath } from '../platform/workspace';

export const MAX_MENTION_BYTES = 256 * 1024;
const MENTION = /(^|\s)@((?:[\w.-]+\/)*[\w.-]+\.[\w]+|(?:[\w.-]+\/)+[\w.-]+)(?=$|[\s,;:!?)])/g;

/**
 * Inlines the files a prompt mentions as `@path` (like upstream's expand_file_mentions): each existing workspace file up
 * to 256 KiB is appended in a <file> block; the prompt text itself is kept as written.
 */
export function expandFileMentions(prompt: string, workspace: string): string {
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of prompt.matchAll(MENTION)) {
    const rel = match[2];
    if (seen.has(rel)) continue;
    seen.add(rel);
    const content = readMentioned(workspace, rel);
    if (content !== undefined) blocks.push(`<file path="${rel}">\n${content}\n</file>`);
  }
  return blocks.length ? `${prompt}\n\n${blocks.join('\n\n')}` : prompt;
}

function readMentioned(workspace: string, rel: string): string | undefined {
  try {
    const abs = resolveWorkspacePath(workspace, rel);
    const st = statSync(abs);
    if (!st.isFile() || st.size > MAX_MENTION_BYTES) return undefined;
    const text = readFileSync(abs, 'utf8');
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}
