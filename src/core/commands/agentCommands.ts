/** `list_agents`, and the `agents` event init sends too (research A:120-125). */
import { agentDirs, agentInfos, discoverAgents } from '../agents/discovery';
import { stageBuiltinAgents } from '../agents/staging';
import type { CoreRuntime } from '../app/coreRuntime';
import type { SessionEventOf } from '../runtime/eventSink';

export function handleListAgents(rt: CoreRuntime): void {
  rt.emit(agentsEvent(rt));
}

/** Read from disk each time: the user may add or edit an agent file while the core runs. */
export function agentsEvent(rt: CoreRuntime): SessionEventOf<'agents'> {
  return { type: 'agents', agents: agentInfos(discoverAgents(agentDirs(rt.config.homeDir, rt.workspace), rt.config.subagents)) };
}

/** The builtins as editable files in ~/.catalyst-code/agents; a home we cannot write to only costs the user those files. */
export function stageAgentsQuietly(rt: CoreRuntime): void {
  try {
    stageBuiltinAgents(rt.config.homeDir);
  } catch (err) {
    rt.log(`staging the builtin agents failed: ${(err as Error).message}`);
  }
}
