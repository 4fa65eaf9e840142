import type { ContextConsumer, LooseEvent, ModelUsageRow } from '../../protocol';
import { formatUsd } from '../../shared/costFormat';
import type { SessionState } from '../../shared/sessionState';

type Stats = LooseEvent<'stats'>;
type Context = LooseEvent<'context_breakdown'>;

/** "Show Stats": the session's usage and context breakdown as a Markdown document. */
export function formatStatsMarkdown(state: SessionState, stats?: Stats, context?: Context): string {
  const out: string[] = ['# Catalyst Code — session stats', ''];
  out.push(...overview(state));
  if (stats) out.push('', '## Usage', '', ...table(statsRows(stats)), ...costByModel(stats));
  if (context) out.push('', '## Context', '', ...table(contextRows(context)), ...consumers(context));
  if (!stats && !context) out.push('', '_The core did not report stats (is it running?)._');
  return `${out.join('\n')}\n`;
}

function overview(state: SessionState): string[] {
  const rows: [string, string][] = [
    ['Provider', state.provider || '—'],
    ['Model', state.model || '—'],
    ['Approval mode', state.approvalMode],
    ['Session file', state.sessionFile ? `\`${state.sessionFile}\`` : '—'],
  ];
  if (state.usage.costUsd !== undefined)
    rows.push(['Estimated cost', `${formatUsd(state.usage.costUsd)}${state.usage.costUnknown ? ' (some requests: price unknown)' : ''}`]);
  return table(rows);
}

function statsRows(s: Stats): [string, string][] {
  const rows: [string, string][] = [];
  const add = (label: string, v: unknown) => typeof v === 'number' && rows.push([label, v.toLocaleString('en-US')]);
  add('Turns', s.turns);
  add('Messages', s.messages);
  add('Current context (tokens)', s.tokens_in);
  add('Prompt tokens (total)', s.total_in);
  add('Output tokens (total)', s.tokens_out);
  add('Cached tokens', s.cached_tokens);
  if (typeof s.cache_hit_ratio === 'number') rows.push(['Cache hit ratio', `${(s.cache_hit_ratio * 100).toFixed(1)} %`]);
  add('Compactions', s.compactions);
  return rows;
}

/** Our core's `stats.by_model`: requests, tokens and cost per model; an unknown price says so, never $0. */
function costByModel(s: Stats): string[] {
  const rows = (Array.isArray(s.by_model) ? s.by_model : []) as Partial<ModelUsageRow>[];
  const valid = rows.filter((r) => typeof r?.model === 'string' && typeof r.requests === 'number');
  if (valid.length === 0) return [];
  const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : '—');
  const lines = valid.map((r) => {
    const cost = typeof r.estimated_usd === 'number' ? formatUsd(r.estimated_usd) : 'price unknown';
    const model = r.provider ? `${r.model} (${r.provider})` : String(r.model);
    return `| ${cell(model)} | ${n(r.requests)} | ${n(r.tokens_in)} | ${n(r.cached_tokens)} | ${n(r.tokens_out)} | ${cost} |`;
  });
  const total = typeof s.estimated_usd === 'number' ? formatUsd(s.estimated_usd) : 'price unknown for some requests';
  return [
    '',
    '### Cost by model',
    '',
    '| Model | Requests | Prompt tokens | Cached | Output tokens | Estimated cost |',
    '|---|---:|---:|---:|---:|---:|',
    ...lines,
    '',
    `Total (subagents included): ${total}. Prices: models.dev, or the provider's \`models_override\`.`,
  ];
}

function contextRows(c: Context): [string, string][] {
  const rows: [string, string][] = [];
  if (typeof c.total_tokens === 'number' && typeof c.context_window === 'number') {
    const pct = typeof c.pct === 'number' ? ` (${c.pct.toFixed(1)} %)` : '';
    rows.push(['Used / window', `${c.total_tokens.toLocaleString('en-US')} / ${c.context_window.toLocaleString('en-US')}${pct}`]);
  }
  if (typeof c.system_tokens === 'number') rows.push(['System prompt', c.system_tokens.toLocaleString('en-US')]);
  if (typeof c.rules_tokens === 'number' && c.rules_tokens > 0)
    rows.push(['Project rules (in the system prompt)', c.rules_tokens.toLocaleString('en-US')]);
  for (const [role, tokens] of Object.entries(c.by_role ?? {}))
    if (typeof tokens === 'number') rows.push([`Role: ${role}`, tokens.toLocaleString('en-US')]);
  if (typeof c.compact_threshold_tokens === 'number') rows.push(['Auto-compact at', c.compact_threshold_tokens.toLocaleString('en-US')]);
  return rows;
}

function consumers(c: Context): string[] {
  const top = (Array.isArray(c.top_consumers) ? c.top_consumers : []) as Partial<ContextConsumer>[];
  const rows: [string, string][] = top
    .filter((t) => typeof t?.tokens === 'number')
    .slice(0, 10)
    .map((t) => [`#${t.index ?? '?'} ${t.role ?? ''}`, `${(t.tokens as number).toLocaleString('en-US')} — ${oneLine(t.preview)}`]);
  if (rows.length === 0) return [];
  return ['', '### Largest messages', '', ...table(rows)];
}

function table(rows: [string, string][]): string[] {
  if (rows.length === 0) return [];
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`)];
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function oneLine(s: unknown): string {
  const text = typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
