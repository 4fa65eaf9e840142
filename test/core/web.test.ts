import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario } from '../support/coreScenario';
import { startWebPageServer, type WebPageServer } from '../support/webPageServer';

const say = (text: string) => ({ steps: [{ text }] });
const calls = (...list: Array<[string, string, object]>) => ({
  steps: list.map(([id, name, args]) => ({ toolCall: { id, name, arguments: args } })),
});
const resultOf = (events: any[], id: string) => events.find((e) => e.type === 'tool_result' && e.id === id);

const PAGE =
  '<html><head><title>Docs</title><style>body { color: red }</style></head><body>' +
  '<script>window.evil = "SCRIPT-TEXT"</script><h1>Rust Docs</h1><p>Use <a href="https://doc.rust-lang.org/std/vec/">Vec</a> &amp; grow.</p>' +
  '</body></html>';

async function pages(): Promise<WebPageServer> {
  const server = await startWebPageServer({
    '/page': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE },
    '/big': { headers: { 'content-type': 'text/plain' }, body: `${'a'.repeat(1024)}TAIL-BEYOND-THE-CAP${'b'.repeat(3000)}` },
    '/loop': { status: 302, headers: { location: '/loop' } },
    '/secret': { headers: { 'content-type': 'text/plain' }, body: 'SECRET-BEHIND-A-REDIRECT' },
  });
  return server;
}

test('fetch: an allowlisted page becomes text without its scripts; other hosts, redirect loops and escapes are refused', async () => {
  const web = await pages();
  // A redirect from the allowlisted 127.0.0.1 to localhost, which the allowlist does not name.
  const away = await startWebPageServer({ '/away': { status: 302, headers: { location: `http://localhost:${web.port}/secret` } } });
  const s = await startScenario({
    approval: 'never',
    config: { fetch_allowlist: ['127.0.0.1'], fetch_max_bytes: 1024 },
    script: [
      calls(['l1', 'load_tools', { tool: 'web' }]),
      calls(
        ['f1', 'fetch', { url: `${web.origin}/page` }],
        ['f2', 'fetch', { url: `http://localhost:${web.port}/page` }],
        ['f3', 'fetch', { url: `${web.origin}/loop` }],
        ['f4', 'fetch', { url: `${away.origin}/away` }],
        ['f5', 'fetch', { url: `${web.origin}/big` }],
        ['f6', 'fetch', { url: 'file:///etc/passwd' }],
        ['f7', 'fetch', { url: `${web.origin}/page`, raw: true }],
      ),
      say('fetched'),
    ],
  });
  try {
    const events = await s.turn('read the docs');
    const page = resultOf(events, 'f1');
    assert.equal(page.ok, true);
    assert.match(page.output, /^HTTP 200 OK {2}text\/html; charset=utf-8\n/);
    assert.match(page.output, /\n# Rust Docs\n\nUse \[Vec\]\(https:\/\/doc\.rust-lang\.org\/std\/vec\/\) & grow\.$/);
    assert.doesNotMatch(page.output, /SCRIPT-TEXT|color: red|<h1>/);

    const other = resultOf(events, 'f2');
    assert.equal(other.ok, false);
    assert.equal(
      other.output,
      "fetch: host 'localhost' is not in the allowlist (1 pattern(s) configured); add it to fetch_allowlist to permit it",
    );

    const loop = resultOf(events, 'f3');
    assert.equal(loop.ok, false);
    assert.match(loop.output, /^fetch: redirect limit exceeded \(5 redirects followed/);
    assert.equal(web.requested.filter((p) => p === '/loop').length, 6, 'the first request and five redirects, then no more');

    const escaped = resultOf(events, 'f4');
    assert.equal(escaped.ok, false, 'the 3xx is the answer');
    assert.match(escaped.output, /^HTTP 302 Found {2}\n/);
    assert.match(
      escaped.output,
      /redirect to http:\/\/localhost:\d+\/secret not followed: fetch: host 'localhost' is not in the allowlist/,
    );
    assert.ok(!web.requested.includes('/secret'), 'the refused host was never asked');

    const big = resultOf(events, 'f5');
    assert.equal(big.ok, true);
    assert.match(big.output, /^HTTP 200 OK {2}text\/plain\n\.\.\.\[body truncated at 1024 bytes\]\.\.\.\na{1024}$/);

    assert.equal(resultOf(events, 'f6').output, 'fetch: url must be an absolute http(s) URL');
    assert.ok(resultOf(events, 'f7').output.endsWith(PAGE), 'raw: the body as it came');
  } finally {
    await s.close();
    await web.close();
    await away.close();
  }
});

test('fetch: with an empty allowlist loopback is refused, and a repository settings.json cannot allowlist it or raise the limits', async () => {
  const web = await pages();
  const s = await startScenario({
    approval: 'never',
    script: [calls(['l1', 'load_tools', { tool: 'web' }]), calls(['f1', 'fetch', { url: `${web.origin}/page` }]), say('refused')],
  });
  try {
    writeFileSync(
      join(s.core.workspace, 'settings.json'),
      JSON.stringify({ fetch_allowlist: ['127.0.0.1'], fetch_max_bytes: 99_999_999, fetch_timeout_secs: 9999, web_tools: true }),
    );
    // The project file is read at start: restart the core on the same home and workspace.
    await s.core.close();
    const { CoreProcess } = await import('../support/coreProcess');
    const again = CoreProcess.start({ workspace: s.core.workspace, home: s.core.home, args: ['--approval', 'never'] });
    try {
      await again.handshake();
      const from = again.events.length;
      again.send({ type: 'send', prompt: 'fetch it', model: 'test-model' });
      await again.waitForType('done', { from });
      const result = resultOf(again.events.slice(from), 'f1');
      assert.equal(
        result.output,
        "fetch: host '127.0.0.1' is a private/loopback/link-local address and is blocked by default (empty fetch_allowlist); add it to fetch_allowlist to explicitly opt in",
      );
      assert.deepEqual(web.requested, []);
      const warning = again.stderr.join('') + JSON.stringify(again.events);
      assert.match(warning, /ignored security-sensitive keys fetch_allowlist, fetch_max_bytes, fetch_timeout_secs, web_tools/);
    } finally {
      await again.close();
    }
  } finally {
    await s.model.close();
    s.core.cleanup();
    await web.close();
  }
});

test('fetch asks for approval in destructive mode (upstream kind), and web tools turned off are never offered', async () => {
  const web = await pages();
  const s = await startScenario({
    config: { fetch_allowlist: ['127.0.0.1'] },
    script: [calls(['l1', 'load_tools', { tool: 'web' }]), calls(['f1', 'fetch', { url: `${web.origin}/page` }]), say('done')],
  });
  const off = await startScenario({
    env: { CATALYST_CODE_WEB_TOOLS: '0' },
    script: [calls(['l1', 'load_tools', { tool: 'web' }]), say('nothing to load')],
  });
  try {
    const events = await s.turnAnswering('fetch the page', ['yes']);
    const request = events.find((e) => e.type === 'approval_request');
    assert.equal(request.tool, 'fetch');
    assert.equal(resultOf(events, 'f1').ok, true);

    const offEvents = await off.turn('load the web tools');
    assert.match(resultOf(offEvents, 'l1').output, /^Not in this core \(skipped\): fetch, web_search/);
    const offered = (off.model.requests.filter((r) => r.method === 'POST').at(-1)!.body.tools ?? []).map(
      (t: any) => t.function?.name ?? t.name,
    );
    assert.ok(!offered.includes('fetch') && !offered.includes('web_search'));
  } finally {
    await s.close();
    await off.close();
    await web.close();
  }
});

test("permission rules and allow_pattern answers match fetch's URL: allow runs it unasked, deny refuses it, others ask", async () => {
  const web = await pages();
  const s = await startScenario({
    approval: 'destructive',
    config: {
      fetch_allowlist: ['127.0.0.1'],
      permissions: { allow: [`fetch(${web.origin}/page)`], deny: ['fetch(*/secret)'] },
    },
    script: [
      calls(['l1', 'load_tools', { tool: 'web' }]),
      calls(['f1', 'fetch', { url: `${web.origin}/page` }]),
      calls(['f2', 'fetch', { url: `${web.origin}/secret` }]),
      calls(['f3', 'fetch', { url: `${web.origin}/big` }]),
      calls(['f4', 'fetch', { url: `${web.origin}/big` }]),
      say('done'),
    ],
  });
  try {
    const events = await s.turnAnswering('fetch them', [{ decision: 'allow_pattern', pattern: `${web.origin}/big*` }]);
    const asked = events.filter((e) => e.type === 'approval_request').map((e) => e.tool_call_id);
    assert.deepEqual(asked, ['f3'], 'only the URL no rule covers asks; the pattern answered for it covers the next one');
    assert.equal(resultOf(events, 'f1').ok, true);
    assert.equal(resultOf(events, 'f2').output, "tool call 'fetch' was denied by the user (blocked by a permission rule)");
    assert.ok(!web.requested.includes('/secret'), 'the denied URL was never asked');
    assert.equal(resultOf(events, 'f3').ok, true);
    assert.equal(resultOf(events, 'f4').ok, true);
    assert.ok(events.some((e) => e.type === 'approval_changed' && e.pattern === `${web.origin}/big*`));
  } finally {
    await s.close();
    await web.close();
  }
});

test('web tools turned off: a child agent that declares fetch is refused at the gate, and nothing is requested', async () => {
  const web = await pages();
  const agent = ['---', 'name: webby', 'description: reads the web', 'tools: fetch', '---', 'You read pages.'].join('\n');
  const s = await startScenario({
    approval: 'never',
    env: { CATALYST_CODE_WEB_TOOLS: '0' },
    config: { fetch_allowlist: ['127.0.0.1'] },
    files: { '.catalyst-code/agents/webby.md': agent },
    script: [calls(['p1', 'subagent', { agent: 'webby', task: '[webby] read the page' }]), say('the child could not')],
    routes: { '[webby]': [calls(['c1', 'fetch', { url: `${web.origin}/page` }]), say('refused')] },
  });
  try {
    const events = await s.turn('let webby read it');
    const result = events.find((e) => e.type === 'subagent_tool_result' && e.call_id === 'c1');
    assert.equal(result.ok, false);
    assert.match(result.result, /^fetch: web tools are turned off \(web_tools: false/);
    assert.deepEqual(web.requested, []);
  } finally {
    await s.close();
    await web.close();
  }
});
