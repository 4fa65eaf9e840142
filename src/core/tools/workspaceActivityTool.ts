/**
 * workspace_activity: the other agent sessions active in this workspace, from the presence records every core
 * publishes (upstream's and this one, see main.ts). Awareness only.
 */
import { succeeded } from './outcome';
import { readPeers, type PresenceRecord } from './presenceRecords';
import { noTargets } from './toolTargets';
import type { ToolDefinition } from './types';

const TEXT_CHARS = 140;

export const workspaceActivityTool: ToolDefinition = {
  name: 'workspace_activity',
  kind: 'readonly',
  deferred: true,
  parallelSafe: true,
  schema: {
    name: 'workspace_activity',
    description:
      "List OTHER active catalyst-code agent sessions running in THIS workspace (separate processes), with each one's " +
      'goal, what it is working on, and the files it recently touched. Use this when something seems off (a build ' +
      'failing for reasons you did not cause, a file that changed unexpectedly) to check whether another session is ' +
      'the cause. Read-only — awareness only, no coordination. Returns the live peers (stale/crashed sessions are auto-pruned).',
    parameters: { type: 'object', properties: {} },
  },
  targets: noTargets,
  execute: async (_args, ctx) => {
    const now = Date.now();
    const peers = await readPeers(ctx.presenceDir, process.pid, now);
    if (peers.length === 0) {
      return succeeded(
        'No other active catalyst-code sessions in this workspace. Any error you are seeing is from your own work or the environment.',
      );
    }
    return succeeded(
      `${peers.length} other active session(s) in this workspace:\n${peers.map((p) => describePeer(p, now / 1000)).join('')}`,
    );
  },
};

function describePeer(p: PresenceRecord, nowSecs: number): string {
  let out = `\n- pid ${p.pid} (started ${age(nowSecs, p.started_at)}, last active ${age(nowSecs, p.last_heartbeat)})`;
  if (p.session_id) out += `, session ${p.session_id}`;
  if (p.model) out += `, model ${p.model}`;
  if (p.goal) out += `\n  goal: ${truncate(p.goal)}`;
  if (p.in_progress.length) out += `\n  in progress: ${p.in_progress.join('; ')}`;
  if (p.next.length) out += `\n  next: ${p.next.join('; ')}`;
  if (p.recent_files.length) out += `\n  recently touched: ${p.recent_files.join(', ')}`;
  if (p.last_activity) out += `\n  last: ${truncate(p.last_activity)}`;
  return out;
}

function age(nowSecs: number, thenSecs: number): string {
  const s = Math.max(0, Math.floor(nowSecs - thenSecs));
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

function truncate(text: string): string {
  return [...text].length <= TEXT_CHARS ? text : `${[...text].slice(0, TEXT_CHARS - 1).join('')}…`;
}
