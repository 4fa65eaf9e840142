import type { LooseEvent, RuntimeResource } from '../../protocol';

type RuntimeStatus = LooseEvent<'runtime_status'>;

/**
 * The `runtime_status` answer as Markdown lines (a section of "Show Stats"): the active run, what waits on the user,
 * the cancellable resources the core holds (turns, shell commands, subagents, a checkpoint store's compaction…),
 * the last cancellation, and the counters.
 */
export function formatRuntimeStatusSection(status: RuntimeStatus | undefined): string[] {
  const out = ['## Core runtime', ''];
  if (!status) return [...out, '_The core did not answer the runtime_status request in time._'];
  out.push(`- Active run: ${typeof status.run_id === 'string' && status.run_id ? `\`${status.run_id}\`` : 'none (idle)'}`);
  const waiting = [
    count(status.pending_approvals, 'approval'),
    count(status.pending_asks, 'question'),
    count(status.pending_sudos, 'sudo password'),
  ].filter(Boolean);
  out.push(`- Waiting on you: ${waiting.length ? waiting.join(', ') : 'nothing'}`);
  const last = status.last_cancellation;
  if (last && typeof last.run_id === 'string') out.push(`- Last cancellation: \`${last.run_id}\` (${cell(String(last.reason ?? '?'))})`);
  if (typeof status.compactions === 'number') out.push(`- Compactions this session: ${status.compactions}`);
  if (typeof status.discarded_stale_results === 'number')
    out.push(`- Late results of cancelled runs dropped: ${status.discarded_stale_results}`);
  const resources = Array.isArray(status.resources) ? status.resources.filter(isResource) : [];
  out.push('');
  if (resources.length === 0) return [...out, '_No cancellable resource is held._'];
  out.push('| Resource | Kind | Run | State |', '| --- | --- | --- | --- |');
  for (const r of resources)
    out.push(
      `| ${cell(r.label || `#${r.id}`)} | ${cell(r.kind)} | ${r.run_id ? `\`${cell(r.run_id)}\`` : '—'} | ${r.cancelled ? 'cancelling' : 'running'} |`,
    );
  return out;
}

function count(n: unknown, what: string): string {
  return typeof n === 'number' && n > 0 ? `${n} ${what}${n === 1 ? '' : 's'}` : '';
}

function isResource(r: unknown): r is RuntimeResource {
  return typeof r === 'object' && r !== null && typeof (r as RuntimeResource).kind === 'string';
}

function cell(text: string): string {
  return String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}
