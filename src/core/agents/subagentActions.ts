/** The `subagent` tool's management actions (upstream's `handle_action`, research A:216-237): text for the model. */
import type { AgentDefinition } from './types';
import { findAgent } from './discovery';

export interface ActionAnswer {
  ok: boolean;
  output: string;
}

const KNOWN_ACTIONS = ['list', 'get', 'create', 'update', 'delete', 'status', 'interrupt', 'resume', 'peek', 'steer', 'doctor'];

/** Upstream's actions this core does not implement: an honest error, never a pretend success. */
const UNSUPPORTED_ACTIONS = new Set(['models', 'create', 'update', 'delete', 'status', 'interrupt', 'resume', 'peek', 'steer', 'doctor']);

export function runAgentAction(action: string, args: Record<string, unknown>, agents: readonly AgentDefinition[]): ActionAnswer {
  if (action === 'list') return { ok: true, output: listAgents(agents) };
  if (action === 'get') return getAgent(args, agents);
  if (UNSUPPORTED_ACTIONS.has(action)) return { ok: false, output: `subagent action '${action}' is not supported by this core` };
  return { ok: false, output: `unknown action '${action}'; use ${KNOWN_ACTIONS.join('|')}` };
}

/** `{n} agent(s):` then `- {name} [{source}] — {description}` per agent. */
export function listAgents(agents: readonly AgentDefinition[]): string {
  return [`${agents.length} agent(s):`, ...agents.map((a) => `- ${a.name} [${a.source}] — ${a.description}`)].join('\n');
}

function getAgent(args: Record<string, unknown>, agents: readonly AgentDefinition[]): ActionAnswer {
  const name = typeof args.agent === 'string' ? args.agent : '';
  const agent = findAgent(agents, name);
  if (!agent) return { ok: false, output: `unknown agent '${name}'` };
  return { ok: true, output: JSON.stringify(agent, null, 2) };
}
