import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXaiUsage } from './xaiUsageShape';

test('billing: creditUsagePercent is the weekly window resetting at currentPeriod.end; productUsage entries follow', () => {
  const usage = parseXaiUsage({
    creditUsagePercent: 37.5,
    currentPeriod: { start: '2029-12-29T00:00:00Z', end: '2030-01-05T00:00:00Z' },
    productUsage: [{ product: 'Grok Build', creditUsagePercent: 30 }, { name: 'imagine', usagePercent: 7.5 }, { product: 'no-figure' }],
  });
  assert.deepEqual(usage, {
    available: true,
    windows: [
      { id: 'weekly', label: 'Weekly usage', unit: 'percent', used: 37.5, resets_at: 1893801600 },
      { id: 'product_grok_build', label: 'Grok Build', unit: 'percent', used: 30 },
      { id: 'product_imagine', label: 'imagine', unit: 'percent', used: 7.5 },
    ],
  });
});

test('missing or mistyped fields give an honest partial answer, never a throw', () => {
  assert.deepEqual(parseXaiUsage({ creditUsagePercent: '5', currentPeriod: 'x', productUsage: { a: 1 } }), {
    available: true,
    windows: [{ id: 'weekly', label: 'Weekly usage', unit: 'percent', used: 5 }],
  });
  for (const v of [null, 'x', [], {}, { productUsage: [null, 3, { product: 9, creditUsagePercent: 1 }] }]) {
    assert.deepEqual(parseXaiUsage(v), { available: false, message: 'xAI returned no usage windows.', windows: [] });
  }
});

test('the proxy’s config wrapper: weekly, products and the on-demand and prepaid credits', () => {
  const usage = parseXaiUsage({
    config: {
      creditUsagePercent: 12,
      currentPeriod: { type: 'USAGE_PERIOD_TYPE_WEEKLY', start: '2029-12-29T00:00:00Z', end: '2030-01-05T00:00:00Z' },
      productUsage: [{ product: 'Api', usagePercent: 4 }],
      onDemandUsed: { val: '2.5' },
      onDemandCap: { val: 50 },
      prepaidBalance: { val: '10' },
    },
  });
  assert.deepEqual(usage, {
    available: true,
    windows: [
      { id: 'weekly', label: 'Weekly usage', unit: 'percent', used: 12, resets_at: 1893801600 },
      { id: 'product_api', label: 'Api', unit: 'percent', used: 4 },
      { id: 'on_demand', label: 'On-demand credits', unit: 'credits', used: 2.5, limit: 50 },
      { id: 'prepaid', label: 'Prepaid credits', unit: 'credits', used: 10, detail: 'balance' },
    ],
  });
  assert.deepEqual(parseXaiUsage({ config: { onDemandCap: { val: 'x' }, prepaidBalance: null } }).available, false);
});
