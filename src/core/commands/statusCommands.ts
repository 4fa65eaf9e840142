import { CHECKPOINT_COMPACTION_RESOURCE_KIND, FOREGROUND_RUN_RESOURCE, type RuntimeResource } from '../../protocol';
import type { RunScope } from '../runtime/runScope';
import { contextWindow } from '../app/contextWindow';
import type { CoreRuntime } from '../app/coreRuntime';
import { estimateTokens } from '../platform/tokenEstimate';
import type { RulesSnapshot } from '../rules/projectRules';
import { refreshRules } from '../rules/rulesEvent';

import { COMPACT_AT, DIGEST_AT, hardLimitTokens, responseReserveTokens } from '../agent/compaction';

export function handleStats(rt: CoreRuntime): void {
  rt.emit(rt.usage.statsEvent(rt.conversation.length, rt.conversation.path));
}

/**
 * `context_breakdown`: estimated tokens per role and the biggest messages (estimates: about 4 characters a token), once
 * the rules are re-read — not awaited, so the commands after it (a cancel) need not wait for a walk of a big tree.
 */
export function handleContext(rt: CoreRuntime): void {
  void refreshRules(rt).then(
    (rules) => emitContextBreakdown(rt, rules),
    (err: Error) => rt.log(`rules refresh failed: ${err.stack ?? err}`),
  );
}

function emitContextBreakdown(rt: CoreRuntime, rules: RulesSnapshot): void {
  const window = contextWindow(rt);
  const systemTokens = estimateTokens(rt.systemPrompt());
  const byRole: Record<string, number> = { system: systemTokens };
  const consumers = rt.conversation.all.map((m, index) => {
    const tokens = estimateTokens(m);
    byRole[m.role] = (byRole[m.role] ?? 0) + tokens;
    const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? m.tool_calls ?? '');
    return { index, role: m.role, tokens, preview: text.slice(0, 120) };
  });
  const total = Object.values(byRole).reduce((a, b) => a + b, 0);
  rt.emit({
    type: 'context_breakdown',
    total_tokens: total,
    context_window: window,
    pct: Math.round((total / window) * 1000) / 10,
    by_role: byRole,
    top_consumers: consumers.sort((a, b) => b.tokens - a.tokens).slice(0, 10),
    messages: rt.conversation.length,
    system_tokens: systemTokens,
    rules_tokens: rules.tokens,
    digest_threshold_tokens: Math.round(window * DIGEST_AT),
    compact_threshold_tokens: Math.round(window * COMPACT_AT),
    hard_limit_tokens: hardLimitTokens(window),
    response_reserve_tokens: responseReserveTokens(window),
    safety_margin_tokens: Math.round(window * 0.02),
  });
}

export function handleRuntimeStatus(rt: CoreRuntime): void {
  const active = rt.runs.active;
  rt.emit({
    type: 'runtime_status',
    session_id: rt.sessionId,
    run_id: active?.runId ?? null,
    discarded_stale_results: rt.sink.discardedStale,
    compactions: rt.usage.compactions,
    last_cancellation: rt.runs.lastCancellation ?? null,
    resources: [...(active ? [foregroundResource(active)] : []), ...subagentResources(rt), ...checkpointCompactions(rt)],
    pending_approvals: rt.approvals.broker.pendingCount(),
    pending_asks: rt.interactions.pendingAsks + rt.intercom.pendingAskCount,
    pending_sudos: rt.interactions.pendingSudos,
  });
}

/** The foreground run, as upstream lists its turn: kind `task`, label `foreground_agent_turn` (FOREGROUND_RUN_RESOURCE). */
function foregroundResource(run: RunScope): RuntimeResource {
  const labels: Readonly<Record<string, string>> = FOREGROUND_RUN_RESOURCE.labels;
  return {
    id: run.resourceId,
    kind: FOREGROUND_RUN_RESOURCE.kind,
    label: labels[run.kind] ?? `foreground_${run.kind}`,
    session_id: run.sessionId,
    run_id: run.runId,
    cancelled: run.cancelled,
  };
}

/** The live subagent runs (and the batches and chains grouping them), as upstream lists them: kind `subagent`. */
function subagentResources(rt: CoreRuntime): RuntimeResource[] {
  return rt.subagents
    .list()
    .filter((run) => run.endedAt === undefined)
    .map((run) => ({
      id: run.scope.resourceId,
      kind: 'subagent',
      label: run.resourceLabel ?? (run.agent ? `${run.agent}: ${run.task.slice(0, 80)}` : run.task),
      session_id: run.scope.sessionId,
      run_id: run.runId,
      cancelled: run.scope.cancelled,
    }));
}

/** The checkpoint store's background `git gc`, while it runs: a client waits for this to be gone (e.g. before measuring). */
function checkpointCompactions(rt: CoreRuntime): RuntimeResource[] {
  const compaction = rt.checkpoints.backgroundCompaction();
  if (!compaction) return [];
  return [
    {
      id: compaction.id,
      kind: CHECKPOINT_COMPACTION_RESOURCE_KIND,
      label: 'checkpoint store compaction (git gc)',
      session_id: rt.sessionId,
      run_id: null,
      cancelled: compaction.stopping,
    },
  ];
}
