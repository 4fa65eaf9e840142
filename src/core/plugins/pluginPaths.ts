/** Where plugin files may live: a declared script or prompt file stays inside its plugin's directory. */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';

export const MAX_PROMPT_COMMAND_BYTES = 256 * 1024;

/** `label` is upstream's wording: "hook script" for hooks, "script" for tools, commands and the rest. */
export function confinedScript(canonDir: string, rel: string, label: string): string {
  const quoted = JSON.stringify(rel);
  const canon = confined(canonDir, rel);
  if (!canon) throw new Error(`${label} ${quoted} escapes the plugin directory`);
  if (!existsSync(canon)) throw new Error(`${label} ${quoted} does not exist`);
  if (!isExecutable(canon)) throw new Error(`${label} ${quoted} is not executable (try chmod +x)`);
  return canon;
}

export function confinedPromptFile(canonDir: string, rel: string): string {
  const quoted = JSON.stringify(rel);
  if (isAbsolute(rel)) throw new Error(`prompt_file ${quoted} must be a relative path`);
  const canon = confined(canonDir, rel);
  if (!canon) throw new Error(`prompt_file ${quoted} escapes the plugin directory`);
  const st = existsSync(canon) ? statSync(canon) : undefined;
  if (!st?.isFile()) throw new Error(`prompt_file ${quoted} is not a regular file`);
  if (st.size > MAX_PROMPT_COMMAND_BYTES) throw new Error(`prompt_file ${quoted} exceeds the ${MAX_PROMPT_COMMAND_BYTES} byte limit`);
  return canon;
}

/** The canonical path of `rel` under `canonDir`, or undefined when a `..` or a symlink leads out of it. */
function confined(canonDir: string, rel: string): string | undefined {
  if (rel.split(/[\\/]/).includes('..')) return undefined;
  const abs = join(canonDir, rel);
  let canon = abs;
  try {
    canon = realpathSync(abs);
  } catch {
    // A missing file keeps its joined path: "does not exist" then says what is wrong.
  }
  return canon === canonDir || canon.startsWith(canonDir + sep) ? canon : undefined;
}

function isExecutable(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() && (process.platform === 'win32' || (st.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}
