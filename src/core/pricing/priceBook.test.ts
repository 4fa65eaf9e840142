import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PriceBook } from './priceBook';
import { PRICED_PROVIDER_IDS, pricedProviderFor } from './pricedProviders';
import { PRICE_SNAPSHOT } from './priceSnapshot';
import { pricesFromCatalog } from './modelsDevPrices';
import type { PriceSnapshot } from './priceTypes';

const snapshot: PriceSnapshot = {
  source: 'test',
  date: '2026-01-01',
  providers: {
    anthropic: {
      'claude-sonnet-4-20250514': [3, 15, 0.3, 3.75],
      'claude-3-5-sonnet-20240620': [3, 15, 0.3, 3.75],
      'claude-3-5-sonnet-20241022': [3, 15, 0.3, 3.75],
    },
    openai: { 'gpt-4o': [2.5, 10, 1.25, null], 'gpt-4o-2024-05-13': [5, 15, null, null] },
  },
};
const anthropic = { baseUrl: 'https://api.anthropic.com' };
const openai = { baseUrl: 'https://api.openai.com/v1' };

test('an exact id is priced; a date suffix, -latest, a vendor/ prefix or case only when every row it could mean agrees', () => {
  const book = new PriceBook(snapshot);
  assert.deepEqual(book.priceFor(openai, 'gpt-4o'), { input: 2.5, output: 10, cache_read: 1.25 });
  assert.equal(book.priceFor(anthropic, 'claude-sonnet-4')?.input, 3);
  assert.equal(book.priceFor(anthropic, 'Claude-3-5-Sonnet-latest')?.output, 15);
  assert.equal(book.priceFor(anthropic, 'anthropic/claude-sonnet-4-20250514')?.cache_write, 3.75);
  // Two gpt-4o rows with different prices: a third date is not guessed as either.
  assert.equal(book.priceFor(openai, 'gpt-4o-2024-08-06'), undefined);
  assert.equal(book.priceFor(openai, 'gpt-4o-mini'), undefined);
});

test('a custom or local endpoint has no price unless it names pricing_provider or a models_override cost', () => {
  const book = new PriceBook(snapshot);
  assert.equal(book.priceFor({ baseUrl: 'http://127.0.0.1:8080/v1' }, 'gpt-4o'), undefined);
  assert.equal(book.priceFor({ baseUrl: 'http://127.0.0.1:8080/v1', pricingProvider: 'openai' }, 'gpt-4o')?.input, 2.5);
  const cost = { input: 1, output: 2 };
  assert.deepEqual(book.priceFor({ baseUrl: 'http://localhost/v1', modelsOverride: [{ id: 'mine', cost }] }, 'mine'), cost);
});

test('the refreshed catalog wins over the snapshot; a model it lacks keeps the snapshot price', () => {
  const book = new PriceBook(snapshot);
  book.useLive(pricesFromCatalog({ openai: { models: { 'gpt-4o': { cost: { input: 2, output: 8 } }, bad: { cost: { input: 'x' } } } } }));
  assert.equal(book.priceFor(openai, 'gpt-4o')?.input, 2);
  assert.equal(book.priceFor(openai, 'bad'), undefined);
  assert.equal(book.priceFor(anthropic, 'claude-sonnet-4')?.input, 3);
});

test('hosts map to models.dev providers the snapshot carries; subscription endpoints and plain http are not priced', () => {
  assert.equal(pricedProviderFor('https://openrouter.ai/api/v1'), 'openrouter');
  assert.equal(pricedProviderFor('https://api.deepseek.com'), 'deepseek');
  assert.equal(pricedProviderFor('https://opencode.ai/zen/v1'), 'opencode');
  assert.equal(pricedProviderFor('https://opencode.ai/zen/go/v1'), undefined);
  assert.equal(pricedProviderFor('https://api.z.ai/api/coding/paas/v4'), undefined);
  assert.equal(pricedProviderFor('http://api.openai.com/v1'), undefined);
  assert.equal(pricedProviderFor('https://api.code.umans.ai/v1'), undefined);
  for (const id of PRICED_PROVIDER_IDS) assert.ok(Object.keys(PRICE_SNAPSHOT.providers[id] ?? {}).length > 0, `snapshot has ${id}`);
  assert.match(PRICE_SNAPSHOT.date, /^\d{4}-\d{2}-\d{2}$/);
});

test('a cache read priced above an uncached read is a catalog error: dropped, cached tokens priced as input', () => {
  const table = pricesFromCatalog({
    openai: {
      models: {
        'gpt-3.5-turbo': { cost: { input: 0.5, output: 1.5, cache_read: 1.25 } },
        'gpt-4.1': { cost: { input: 2, output: 8, cache_read: 0.5 } },
        'same-price': { cost: { input: 1, output: 2, cache_read: 1 } },
      },
    },
  });
  assert.deepEqual(table.openai, {
    'gpt-3.5-turbo': [0.5, 1.5, null, null],
    'gpt-4.1': [2, 8, 0.5, null],
    'same-price': [1, 2, 1, null],
  });
  const rows = Object.values(PRICE_SNAPSHOT.providers).flatMap((models) => Object.entries(models));
  assert.deepEqual(
    rows.filter(([, row]) => row[2] !== null && row[2] > row[0]).map(([id]) => id),
    [],
    'no snapshot row prices a cache read above input',
  );
});
