import type { UsageEvent, UsageWindow } from '../../protocol';

/** The fields read (UsageEvent's index signature would make a LooseEvent of it all `unknown`); values still unchecked. */
type Usage = { type: 'usage' } & Partial<Pick<UsageEvent, 'provider' | 'model' | 'available' | 'plan' | 'message' | 'windows'>>;

/** The `usage` answer as Markdown lines (a section of "Show Usage" and "Show Stats"): plan, note and one row per window. */
export function formatUsageSection(usage: Usage | undefined, clock: (unixSeconds: number) => string = localClock): string[] {
  const out = ['## Provider usage', ''];
  if (!usage) return [...out, '_The core did not answer the usage request in time._'];
  const who = [usage.provider && `\`${usage.provider}\``, usage.model && `model \`${usage.model}\``].filter(Boolean).join(', ');
  if (who) out.push(`Provider ${who}${usage.plan ? ` — plan **${usage.plan}**` : ''}`, '');
  if (typeof usage.message === 'string' && usage.message) out.push(`> ${oneLine(usage.message)}`, '');
  const windows = Array.isArray(usage.windows) ? usage.windows.filter(isWindow) : [];
  if (usage.available === false || windows.length === 0) {
    if (!usage.message) out.push('_This provider reports no usage._');
    return trimEnd(out);
  }
  out.push('| Limit | Used | Resets | |', '| --- | --- | --- | --- |');
  for (const w of windows)
    out.push(`| ${cell(w.label || w.id)} | ${cell(usedText(w))} | ${w.resets_at ? clock(w.resets_at) : '—'} | ${cell(w.detail ?? '')} |`);
  return out;
}

/** "120 / 1,000 requests", "42 %", "3 sessions" (no limit), "17,500 tokens". */
export function usedText(w: UsageWindow): string {
  const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  if (w.unit === 'percent') return w.used === undefined ? '—' : `${n(w.used)} %`;
  if (w.used === undefined && w.limit === undefined) return '—';
  const used = w.used === undefined ? '?' : n(w.used);
  return w.limit === undefined ? `${used} ${w.unit}` : `${used} / ${n(w.limit)} ${w.unit}`;
}

function localClock(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString();
}

function isWindow(w: unknown): w is UsageWindow {
  return typeof w === 'object' && w !== null && typeof (w as UsageWindow).id === 'string' && typeof (w as UsageWindow).unit === 'string';
}

function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

function oneLine(text: string): string {
  return String(text).replace(/\s+/g, ' ').trim();
}

function trimEnd(lines: string[]): string[] {
  while (lines.at(-1) === '') lines.pop();
  return lines;
}
