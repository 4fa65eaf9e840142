// Identities of subagent runs shared by the core and its clients.

/**
 * A child run's intercom target, also the `run_id` of its `approval_request`s: `subagent-<agent>-<run id>`, the agent
 * lowercased and kept to [a-z0-9_-], the first 8 characters of the run id without its '-' (upstream's `subagent_target`): the run
 * `run-3-0` of `worker` is `subagent-worker-run30`.
 */
export function subagentTarget(runId: string, agent: string): string {
  const name = agent.replace(/[^A-Za-z0-9_-]/g, '').toLowerCase();
  const id = runId.replaceAll('-', '').slice(0, 8);
  return `subagent-${name}-${id}`;
}

/** The intercom target of the main agent. */
export const ORCHESTRATOR_TARGET = 'orchestrator';
