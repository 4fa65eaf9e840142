import type { UsageWindow } from '../../protocol';
import { unavailableUsage, type ProviderUsage } from './umansUsageShape';
import { asObject, num, str, unixSeconds, withDefined } from './usageJson';

/**
 * ChatGPT Codex's `GET <backend-api>/wham/usage` (upstream `usage.rs:476-653`): `{plan_type, rate_limit:{primary_window,
 * secondary_window: {used_percent, limit_window_seconds, reset_at}}, credits:{has_credits, unlimited, balance}}`.
 */
export function parseCodexUsage(v: unknown): ProviderUsage {
  const root = asObject(v);
  const rateLimit = asObject(root.rate_limit);
  const windows: UsageWindow[] = [];
  const taken = new Set<string>();
  for (const [key, fallbackId] of [
    ['primary_window', 'primary'],
    ['secondary_window', 'secondary'],
  ] as const) {
    const w = codexWindow(rateLimit[key], fallbackId);
    if (w && !taken.has(w.id)) {
      taken.add(w.id);
      windows.push(w);
    }
  }
  const credits = creditsWindow(root.credits);
  if (credits) windows.push(credits);

  if (windows.length === 0) return unavailableUsage('ChatGPT returned no usage windows.');
  const plan = str(root.plan_type);
  return { available: true, ...(plan ? { plan } : {}), windows };
}

function codexWindow(v: unknown, fallbackId: string): UsageWindow | undefined {
  const w = asObject(v);
  const used = num(w.used_percent);
  const resets = unixSeconds(w.reset_at);
  if (used === undefined && resets === undefined) return undefined;
  const { id, label } = windowName(num(w.limit_window_seconds), fallbackId);
  return withDefined({ id, label, unit: 'percent', used, resets_at: resets });
}

/** The window's id and label from its length: five_hour "5-hour", three_hour, weekly "Weekly", `<N>h`, `<N>m`. */
export function windowName(seconds: number | undefined, fallbackId: string): { id: string; label: string } {
  if (seconds === undefined || seconds <= 0)
    return { id: fallbackId, label: fallbackId === 'primary' ? 'Primary window' : 'Secondary window' };
  const minutes = Math.round(seconds / 60);
  if (minutes === 300) return { id: 'five_hour', label: '5-hour' };
  if (minutes === 180) return { id: 'three_hour', label: '3-hour' };
  if (minutes === 7 * 24 * 60) return { id: 'weekly', label: 'Weekly' };
  if (minutes % 60 === 0) return { id: `${minutes / 60}h`, label: `${minutes / 60}-hour` };
  return { id: `${minutes}m`, label: `${minutes}-minute` };
}

function creditsWindow(v: unknown): UsageWindow | undefined {
  const c = asObject(v);
  if (c.unlimited === true) return { id: 'credits', label: 'Credits', unit: 'credits', detail: 'unlimited' };
  const balance = num(c.balance);
  if (balance === undefined) return undefined;
  return { id: 'credits', label: 'Credits remaining', unit: 'credits', used: balance };
}
