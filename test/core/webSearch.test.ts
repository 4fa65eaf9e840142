import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, type Scenario } from '../support/coreScenario';
import { startSearchApiStandIn } from '../support/searchApiStandIn';

const say = (text: string) => ({ steps: [{ text }] });
const call = (id: string, name: string, args: object) => ({ steps: [{ toolCall: { id, name, arguments: args } }] });
const resultOf = (events: any[], id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);
const offeredAt = (s: Scenario, i: number): string[] =>
  (s.model.requests.filter((r) => r.method === 'POST')[i].body.tools ?? []).map((t: any) => t.function?.name ?? t.name);

const EXA_KEY = 'exa-key-WEBSEARCHMARKER-7f3a9c';
const TAVILY_KEY = 'tvly-key-WEBSEARCHMARKER-51be07';
const HITS = [
  { title: 'The Rust Programming Language', url: 'https://www.rust-lang.org/', snippet: 'Empowering everyone.' },
  { title: 'std - Rust', url: 'https://doc.rust-lang.org/std/', snippet: 'The standard library.' },
  { title: 'No URL', url: 'not-a-url', snippet: 'dropped' },
];

async function setSearchKey(s: Scenario, provider: string, apiKey: string): Promise<any> {
  const from = s.core.events.length;
  s.core.send({ type: 'set_search_key', provider, api_key: apiKey });
  return s.core.waitForType('search_key_set', { from });
}

/** Every file under `dir` whose content holds `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) found.push(...filesHolding(path, needle));
    else if (st.isFile() && readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

test('web_search: offered once a key is set; Exa and Tavily request shapes; the key reaches no file, log or event', async () => {
  const api = await startSearchApiStandIn(HITS);
  const s = await startScenario({
    approval: 'destructive',
    args: ['--session', 'web.jsonl', '--debug-log', 'core-debug.log'],
    env: { CATALYST_CODE_EXA_URL: api.exaUrl, CATALYST_CODE_TAVILY_URL: api.tavilyUrl, CATALYST_CODE_DEBUG: '1' },
    config: { fetch_allowlist: ['127.0.0.1'] },
    script: [
      call('l1', 'load_tools', { tool: 'web' }),
      say('no search yet'),
      call('w1', 'web_search', { query: 'rust vec', count: 2 }),
      say('found on exa'),
      call('w2', 'web_search', { query: 'rust std' }),
      say('found on tavily'),
      call('w3', 'web_search', { query: 'again' }),
      say('exa refused the key'),
      say(`you pasted ${TAVILY_KEY} earlier`),
    ],
  });
  try {
    await s.turn('load the web tools');
    assert.ok(offeredAt(s, 1).includes('fetch'), 'fetch is offered once loaded');
    assert.ok(!offeredAt(s, 1).includes('web_search'), 'web_search is not offered without a key');

    assert.deepEqual(await setSearchKey(s, 'EXA', `  ${EXA_KEY} `), {
      ...(await lastOf(s, 'search_key_set')),
      provider: 'exa',
      has_key: true,
    });
    const exa = await s.turn('search on exa');
    assert.ok(offeredAt(s, 2).includes('web_search'), 'offered while a key is set');
    assert.ok(!exa.some((e) => e.type === 'approval_request'), 'web_search is read-only: no approval');
    assert.equal(
      resultOf(exa, 'w1').output,
      'Search: rust vec  (Exa API, 2 hit(s))\n\n' +
        '1. The Rust Programming Language\n   https://www.rust-lang.org/\n   Empowering everyone.\n\n' +
        '2. std - Rust\n   https://doc.rust-lang.org/std/\n   The standard library.\n\n',
    );
    assert.equal(api.requests[0].provider, 'exa');
    assert.equal(api.requests[0].headers['x-api-key'], EXA_KEY);
    assert.deepEqual(api.requests[0].body, {
      query: 'rust vec',
      numResults: 2,
      type: 'auto',
      contents: { text: { maxCharacters: 300 } },
    });

    assert.equal((await setSearchKey(s, 'tavily', TAVILY_KEY)).has_key, true);
    assert.equal((await setSearchKey(s, 'exa', '')).has_key, false, 'an empty key clears it');
    const tavily = await s.turn('search on tavily');
    assert.match(resultOf(tavily, 'w2').output, /^Search: rust std {2}\(Tavily API, 2 hit\(s\)\)\n\n1\. The Rust Programming Language\n/);
    assert.equal(api.requests.length, 2);
    assert.equal(api.requests[1].headers.authorization, `Bearer ${TAVILY_KEY}`);
    assert.deepEqual(api.requests[1].body, {
      query: 'rust std',
      search_depth: 'basic',
      max_results: 8,
      topic: 'general',
      include_answer: false,
      include_raw_content: false,
      include_usage: true,
    });

    // An error answer that names the key reaches the model, the events and the session file scrubbed.
    await setSearchKey(s, 'exa', EXA_KEY);
    assert.equal((await setSearchKey(s, 'tavily', '')).has_key, false);
    api.failNext('exa', 401);
    const refused = resultOf(await s.turn('search again'), 'w3');
    assert.match(
      refused.output,
      /attempts: Tavily: no API key \(set TAVILY_API_KEY or send set_search_key\) \| Exa: auth error \(HTTP 401\): \{"error":"bad key \[REDACTED\]"\}$/,
    );
    assert.ok(
      s.model.requests.every((r) => !JSON.stringify(r.body ?? null).includes(EXA_KEY)),
      'nor does the model see it',
    );

    // A runtime key is in the redaction set: a reply that repeats it (say, a key the user pasted) is scrubbed.
    assert.equal((await setSearchKey(s, 'tavily', TAVILY_KEY)).has_key, true);
    const echoed = await s.turn('what was my key?');
    const reply = echoed
      .filter((e) => e.type === 'delta')
      .map((e) => e.text)
      .join('');
    assert.equal(reply, 'you pasted [REDACTED] earlier');

    // While both keys are set: nowhere on disk (upstream would have written them to config.json).
    for (const key of [EXA_KEY, TAVILY_KEY])
      assert.deepEqual([...filesHolding(s.core.home, key), ...filesHolding(s.core.workspace, key)], []);

    // An unknown provider is upstream's error, and the core goes on answering.
    const from = s.core.events.length;
    s.core.send({ type: 'set_search_key', provider: 'bing', api_key: EXA_KEY });
    const error = await s.core.waitForType('error', { from });
    assert.equal(error.message, "set_search_key: unknown provider 'bing' (expected 'exa' or 'tavily')");
    assert.equal((await setSearchKey(s, 'exa', '')).has_key, false, 'the core still answers');
    assert.equal((await setSearchKey(s, 'tavily', '')).has_key, false);

    await s.core.close();
    for (const key of [EXA_KEY, TAVILY_KEY]) {
      assert.deepEqual(filesHolding(s.core.home, key), [], 'not in config.json, the sessions or any other file of the home');
      assert.deepEqual(filesHolding(s.core.workspace, key), [], 'not in the session file or the debug log');
      assert.ok(!JSON.stringify(s.core.events).includes(key), 'not in any event');
      assert.ok(!s.core.stderr.join('').includes(key), "not in the core's log");
    }
    assert.ok(readFileSync(join(s.core.workspace, 'core-debug.log'), 'utf8').includes('set_search_key'), 'the debug log saw the commands');
    assert.ok(readFileSync(join(s.core.workspace, 'web.jsonl'), 'utf8').includes('Exa API'), 'the session file holds the search');
  } finally {
    await s.model.close();
    s.core.cleanup();
    await api.close();
  }
});

async function lastOf(s: Scenario, type: string): Promise<any> {
  return [...s.core.events].reverse().find((e) => e.type === type);
}

test('web_search: a rate-limited provider cools down and the other one answers; without usable keys, all backends failed', async () => {
  const api = await startSearchApiStandIn(HITS);
  const s = await startScenario({
    approval: 'never',
    env: { CATALYST_CODE_EXA_URL: api.exaUrl, CATALYST_CODE_TAVILY_URL: api.tavilyUrl, EXA_API_KEY: EXA_KEY },
    config: { fetch_allowlist: ['127.0.0.1'] },
    script: [
      call('l1', 'load_tools', { tool: 'web_search' }),
      call('w1', 'web_search', { query: 'first' }),
      call('w2', 'web_search', { query: 'second' }),
      call('w3', 'web_search', { query: 'third' }),
      say('searched'),
    ],
  });
  try {
    await setSearchKey(s, 'tavily', TAVILY_KEY);
    api.failNext('exa', 429, { 'retry-after': '120' });
    api.passNext('tavily');
    api.failNext('tavily', 401);
    const events = await s.turn('search three times');
    // The first search starts on Exa (rate-limited, 120 s cooldown), then Tavily answers.
    assert.match(resultOf(events, 'w1').output, /^Search: first {2}\(Tavily API/);
    // The second starts on Tavily (the round-robin moved on): its 401 parks it for 60 s, and Exa is cooling down.
    const second = resultOf(events, 'w2');
    assert.equal(second.ok, false);
    const upstreamHead =
      'web_search: all backends failed; retry later or use the `fetch` tool against a specific URL. query was "second". ';
    assert.ok(second.output.startsWith(upstreamHead), second.output);
    assert.match(
      second.output.slice(upstreamHead.length),
      /^attempts: Exa: cooling down after a rate-limit, auth or quota answer \(\d+s left\) \| Tavily: auth error \(HTTP 401\)$/,
    );
    assert.match(resultOf(events, 'w3').output, /^web_search: all backends failed; .*Exa: cooling down .*\| Tavily: cooling down/);
    assert.deepEqual(
      api.requests.map((r) => r.provider),
      ['exa', 'tavily', 'tavily'],
      'no request to a provider in its cooldown',
    );
    assert.ok(!JSON.stringify(s.core.events).includes(EXA_KEY), 'an environment key is scrubbed as well');
  } finally {
    await s.close();
    await api.close();
  }
});

test("set_search_key with persist: true writes upstream's config.json search_keys (mode 0600); an empty key removes it", async () => {
  const s = await startScenario({ script: [] });
  try {
    const config = join(s.core.home, '.config', 'catalyst-code', 'config.json');
    const from = s.core.events.length;
    s.core.send({ type: 'set_search_key', provider: 'tavily', api_key: TAVILY_KEY, persist: true });
    assert.equal((await s.core.waitForType('search_key_set', { from })).has_key, true);
    assert.equal(JSON.parse(readFileSync(config, 'utf8')).search_keys.tavily, TAVILY_KEY);
    assert.equal(statSync(config).mode & 0o777, 0o600);
    const next = s.core.events.length;
    s.core.send({ type: 'set_search_key', provider: 'tavily', api_key: '', persist: true });
    assert.equal((await s.core.waitForType('search_key_set', { from: next })).has_key, false);
    assert.deepEqual(JSON.parse(readFileSync(config, 'utf8')).search_keys, {});
  } finally {
    await s.close();
  }
});

test("web_search loaded but held out of the schema for want of a key: a call anyway gets upstream's answer, not 'call load_tools'", async () => {
  const s = await startScenario({
    script: [call('l1', 'load_tools', { tool: 'web' }), call('w1', 'web_search', { query: 'rust vec' }), say('no key')],
  });
  try {
    const events = await s.turn('search without a key');
    assert.equal(offeredAt(s, 1).includes('web_search'), false, 'web_search was offered with no key set');
    assert.match(resultOf(events, 'w1').output, /^web_search: all backends failed; .*query was "rust vec"/);
  } finally {
    await s.close();
  }
});

test("permission rules match web_search's query: a deny rule refuses it, an ask rule prompts though it is read-only", async () => {
  const api = await startSearchApiStandIn(HITS);
  const s = await startScenario({
    approval: 'destructive',
    env: { CATALYST_CODE_EXA_URL: api.exaUrl, CATALYST_CODE_TAVILY_URL: api.tavilyUrl, EXA_API_KEY: EXA_KEY },
    config: { fetch_allowlist: ['127.0.0.1'], permissions: { deny: ['web_search(*password*)'], ask: ['web_search(internal *)'] } },
    script: [
      call('l1', 'load_tools', { tool: 'web_search' }),
      call('w1', 'web_search', { query: 'leaked password list' }),
      call('w2', 'web_search', { query: 'internal wiki' }),
      call('w3', 'web_search', { query: 'rust vec' }),
      say('searched'),
    ],
  });
  try {
    const events = await s.turnAnswering('search', ['yes']);
    assert.equal(resultOf(events, 'w1').output, "tool call 'web_search' was denied by the user (blocked by a permission rule)");
    const asked = events.filter((e) => e.type === 'approval_request').map((e) => e.tool_call_id);
    assert.deepEqual(asked, ['w2'], 'only the query an ask rule matches prompts');
    assert.match(resultOf(events, 'w2').output, /^Search: internal wiki {2}\(Exa API/);
    assert.match(resultOf(events, 'w3').output, /^Search: rust vec {2}\(Exa API/);
    assert.deepEqual(
      api.requests.map((r) => r.body.query),
      ['internal wiki', 'rust vec'],
      'the denied query never left the machine',
    );
  } finally {
    await s.close();
    await api.close();
  }
});
