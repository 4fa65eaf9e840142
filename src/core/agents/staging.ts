/**
 * Puts the builtin agents into `~/.catalyst-code/agents/` as files the user can edit, as upstream stages its defaults
 * (research A:104-118). Only missing files are written, never over an existing one, and never upstream's `.staged`
 * marker: upstream's own staging still runs when its core starts, and keeps whatever it finds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderAgentFile } from './agentFile';
import { builtinAgents } from './builtinAgents';
import { userAgentsDir } from './discovery';

/** The paths written. Throws only if the directory cannot be made; a file that exists already is left as it is. */
export function stageBuiltinAgents(homeDir: string): string[] {
  const dir = userAgentsDir(homeDir);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const agent of builtinAgents()) {
    const path = join(dir, `${agent.name}.md`);
    try {
      // 'wx' fails if the file exists, so a user's edit (or a concurrent core's write) is never replaced.
      writeFileSync(path, renderAgentFile(agent), { flag: 'wx' });
      written.push(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return written;
}
