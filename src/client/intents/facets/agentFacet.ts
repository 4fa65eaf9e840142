import type { AgentInfo } from '../../../protocol';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import { records, str } from '../../state/eventFields';
import type { IntentContext } from '../intentContext';
import type { TurnIntents } from './turnFacet';

export type AgentIntents = ReturnType<typeof agentFacet>;

/** The agents subagents run as: listed for `/agents` and the pickers, and run through the model. */
export function agentFacet(ctx: IntentContext, turn: Pick<TurnIntents, 'sendPrompt'>) {
  const requireSubagents = () => ctx.requireFeature(UI_CAPABILITIES.subagents, 'does not support subagents');

  return {
    /** `/agents`: the core's agents, shown as a notice when they arrive. */
    listAgents(): boolean {
      if (!ctx.requireReady() || !requireSubagents()) return false;
      ctx.requestReport('agents');
      return ctx.send({ type: 'list_agents' });
    },

    /** The core's agents for a picker: its next `agents` answer; undefined if it cannot say (not ready, stopped meanwhile). */
    fetchAgents(): Promise<AgentInfo[] | undefined> {
      if (!ctx.requireReady() || !requireSubagents()) return Promise.resolve(undefined);
      return ctx.nextAnswer({ type: 'list_agents' }, ['agents']).then((e) => (e?.type === 'agents' ? agentInfos(e.agents) : undefined));
    },

    /** Asks the model to run `agent` on `task` through the subagent tool, in upstream's wording (its web client's /run), so any core's model can. */
    runSubagent(agent: string, task: string): boolean {
      const name = typeof agent === 'string' ? agent.trim() : '';
      const text = typeof task === 'string' ? task.trim() : '';
      if (!name || !text) return ctx.refuse('Pick an agent and describe its task.');
      if (!requireSubagents()) return false;
      return turn.sendPrompt(subagentPrompt(name, text));
    },
  };
}

/** The wording upstream's web client sends for `/run` (research catcode-agents §1.9). */
function subagentPrompt(agent: string, task: string): string {
  return `Run the subagent tool: agent="${agent}", task="${task}". Return its result.`;
}

export function agentInfos(raw: unknown): AgentInfo[] {
  return records<AgentInfo>(raw).flatMap((a) => {
    const name = str(a.name);
    if (!name) return [];
    const info: AgentInfo = { name };
    const description = str(a.description);
    const source = str(a.source);
    if (description) info.description = description;
    if (source) info.source = source;
    return [info];
  });
}

export function agentsReport(agents: readonly AgentInfo[]): string {
  if (agents.length === 0) return 'This core has no agents.';
  const lines = agents.map((a) => `${a.name}${a.source ? ` (${a.source})` : ''}${a.description ? ` — ${a.description}` : ''}`);
  return ['Agents:', ...lines].join('\n');
}
