import type { UsageWindow } from '../../protocol';
import { unavailableUsage, type ProviderUsage } from './umansUsageShape';
import { asObject, num, str, unixSeconds, withDefined } from './usageJson';

/**
 * xAI's `GET /v1/billing?format=credits` on the Grok CLI proxy (upstream `usage.rs:801-…`): `creditUsagePercent` → the
 * `weekly` "Weekly usage" window resetting at `currentPeriod.end`; each `productUsage[]` entry → a `product_<x>` window;
 * `onDemandUsed`/`onDemandCap` and `prepaidBalance` (`{val}` amounts) → `on_demand` and `prepaid` credits windows. The
 * proxy sends these inside `config`; a payload with them at the top level is read the same way.
 */
export function parseXaiUsage(v: unknown): ProviderUsage {
  const outer = asObject(v);
  const root = Object.keys(asObject(outer.config)).length > 0 ? asObject(outer.config) : outer;
  const windows: UsageWindow[] = [];
  const weekly = num(root.creditUsagePercent);
  if (weekly !== undefined) {
    const resets = unixSeconds(asObject(root.currentPeriod).end);
    windows.push(withDefined({ id: 'weekly', label: 'Weekly usage', unit: 'percent', used: weekly, resets_at: resets }));
  }
  for (const entry of Array.isArray(root.productUsage) ? root.productUsage : []) {
    const w = productWindow(entry);
    if (w && !windows.some((x) => x.id === w.id)) windows.push(w);
  }
  const onDemandUsed = amount(root.onDemandUsed);
  const onDemandCap = amount(root.onDemandCap);
  if (onDemandUsed !== undefined || onDemandCap !== undefined) {
    windows.push(withDefined({ id: 'on_demand', label: 'On-demand credits', unit: 'credits', used: onDemandUsed, limit: onDemandCap }));
  }
  const prepaid = amount(root.prepaidBalance);
  if (prepaid !== undefined) windows.push({ id: 'prepaid', label: 'Prepaid credits', unit: 'credits', used: prepaid, detail: 'balance' });
  if (windows.length === 0) return unavailableUsage('xAI returned no usage windows.');
  return { available: true, windows };
}

/** `{product|name, creditUsagePercent|usagePercent}` → `product_<slug>` (the entry's field names are not in the research). */
function productWindow(v: unknown): UsageWindow | undefined {
  const e = asObject(v);
  const product = str(e.product) ?? str(e.name);
  const used = num(e.creditUsagePercent) ?? num(e.usagePercent);
  if (!product || used === undefined) return undefined;
  const slug = product
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return { id: `product_${slug}`, label: product, unit: 'percent', used };
}

/** A money figure, `{val: "12.5"}` or a bare number. */
function amount(v: unknown): number | undefined {
  return num(v) ?? num(asObject(v).val);
}
