import type { UsageWindow } from '../../protocol';
import { unavailableUsage, type ProviderUsage } from './umansUsageShape';
import { asObject, num, unixSeconds, withDefined } from './usageJson';

/** The buckets of `GET /api/oauth/usage`, in upstream's order, each `{utilization (0–100), resets_at (ISO-8601)}`. */
const BUCKETS: ReadonlyArray<readonly [id: string, label: string]> = [
  ['five_hour', '5-hour'],
  ['seven_day', 'Weekly'],
  ['seven_day_opus', 'Weekly (Opus)'],
  ['seven_day_sonnet', 'Weekly (Sonnet)'],
  ['seven_day_oauth_apps', 'Weekly (OAuth apps)'],
];

/**
 * Anthropic's subscription usage for an OAuth login (upstream `usage.rs:660-800`): the percent buckets above, null ones
 * left out, and `extra_usage{is_enabled, used_credits, monthly_limit}` as a credits window when it is enabled.
 */
export function parseAnthropicOauthUsage(v: unknown): ProviderUsage {
  const root = asObject(v);
  const windows: UsageWindow[] = [];
  for (const [id, label] of BUCKETS) {
    const bucket = asObject(root[id]);
    const used = num(bucket.utilization);
    if (used === undefined) continue;
    windows.push(withDefined({ id, label, unit: 'percent', used, resets_at: unixSeconds(bucket.resets_at) }));
  }
  const extra = asObject(root.extra_usage);
  if (extra.is_enabled === true) {
    const used = num(extra.used_credits);
    const limit = num(extra.monthly_limit);
    if (used !== undefined || limit !== undefined) {
      windows.push(withDefined({ id: 'extra_usage', label: 'Extra usage', unit: 'credits', used, limit, detail: 'monthly' }));
    }
  }
  if (windows.length === 0) return unavailableUsage('Anthropic returned no usage windows.');
  return { available: true, windows };
}
