/** Development aid: session states and a long streamed reply for the dev page. Never shipped. */
import { initialSessionState, type SessionState, type TranscriptItem } from '../../src/shared/sessionState';

const REPLY_PARTS = [
  '## Plan\n\nI looked at `src/app.ts` and [the config](src/config.ts#L12). Here is what I will change:\n\n',
  '1. Parse the options once.\n2. Cache the **result** per workspace.\n3. Add a test.\n\n',
  '```ts\nexport function parseOptions(raw: string): Options {\n  const data = JSON.parse(raw) as Partial<Options>;\n  return { verbose: data.verbose ?? false, depth: data.depth ?? 3 };\n}\n```\n\n',
  '| file | change |\n|---|---|\n| src/app.ts | parse once |\n| src/cache.ts | new |\n\n',
  '> Note: the cache is keyed by workspace folder.\n\nRun the tests with:\n\n```bash\nnpm test -- --grep cache\n```\n\n',
  'Some inline `code`, *emphasis* and a link to https://example.com/docs. <script>alert("x")</script> stays text.\n\n',
];

export function longReply(targetChars: number): string {
  let text = '';
  for (let i = 0; text.length < targetChars; i++) text += REPLY_PARTS[i % REPLY_PARTS.length].replace('## Plan', `## Part ${i + 1}`);
  return text;
}

export function richState(): SessionState {
  const s = initialSessionState('embedded');
  s.core = {
    kind: 'embedded',
    status: 'ready',
    capabilities: ['allow_pattern', 'checkpoint', 'approval_edited_content'],
    version: '0.2.0',
  };
  s.run = { status: 'waiting_approval', runId: 'r1', queued: 'Also update the README when you are done' };
  s.anyLoggedIn = true;
  s.authed = true;
  s.models = [
    { id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', provider: 'openrouter', thinkingLevels: ['low', 'medium', 'high'] },
    { id: 'deepseek/deepseek-chat', name: 'DeepSeek V3', provider: 'openrouter' },
    { id: 'qwen3-coder', provider: 'ollama' },
  ];
  s.model = 'anthropic/claude-sonnet-4';
  s.usage = { tokensIn: 48_210, tokensOut: 5120, cachedTokens: 20_000, costUsd: 0.142 };
  s.context = { tokens: 61_000, window: 200_000, pct: 30.5 };
  s.sessionFile = '/tmp/s1.jsonl';
  s.sessions = [
    {
      name: 's1',
      path: '/tmp/s1.jsonl',
      title: 'Cache the parsed options',
      messages: 12,
      mtime: Date.now() - 120_000,
      current: true,
      pinned: false,
    },
    {
      name: 's0',
      path: '/tmp/s0.jsonl',
      title: 'Fix the flaky upload test',
      messages: 40,
      mtime: Date.now() - 86_400_000 * 3,
      current: false,
      pinned: true,
    },
  ];
  const diff =
    '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,4 +1,5 @@\n import { load } from "./load";\n-const opts = parse(raw);\n+const opts = parseOptions(raw);\n+cache.set(folder, opts);\n export default opts;\n';
  const items: TranscriptItem[] = [
    { kind: 'user', id: 'u1', text: 'Cache the parsed options per workspace, and add a test.\nKeep the API the same.', images: 1 },
    {
      kind: 'assistant',
      id: 'a1',
      runId: 'r1',
      text: longReply(1200),
      thinking: 'The user wants caching. I should look at app.ts first, then decide where the cache lives.',
      streaming: false,
    },
    {
      kind: 'tool',
      id: 't1',
      name: 'read_file',
      args: '{"path":"src/app.ts"}',
      status: 'success',
      output: 'import { load } from "./load";\nconst opts = parse(raw);\nexport default opts;\n',
      files: [],
    },
    { kind: 'checkpoint', id: 'c1', label: 'before edit', auto: true },
    {
      kind: 'tool',
      id: 't2',
      name: 'edit',
      args: '{"path":"src/app.ts","edits":[{"search":"parse(raw)","replace":"parseOptions(raw)"}]}',
      status: 'success',
      diff,
      files: ['src/app.ts'],
    },
    { kind: 'tool', id: 't3', name: 'bash', args: '{"command":"npm test -- --grep cache"}', status: 'running', files: [] },
    { kind: 'notice', id: 'n1', level: 'warning', text: 'The provider answered 429 (rate limited); retrying in 2 s.' },
    { kind: 'notice', id: 'n2', level: 'error', text: 'Authentication failed for provider openrouter.', code: 'auth', action: 'login' },
    { kind: 'bash', id: 'b1', command: 'git status --short', output: ' M src/app.ts\n?? src/cache.ts\n', ok: true },
    {
      kind: 'ask',
      id: 'q1',
      questions: [
        { id: 'scope', prompt: 'Where should the cache live?', type: 'select', options: ['In memory', 'On disk'], allowCustom: true },
      ],
      state: 'pending',
    },
    { kind: 'sudo', id: 's1', command: 'sudo apt-get install -y jq', state: 'pending' },
    {
      kind: 'approval',
      id: 'ap0',
      toolCallId: 't0',
      tool: 'delete',
      risk: 'high',
      args: '{"path":"old.txt"}',
      createdAt: Date.now(),
      state: 'denied',
      decision: 'no',
    },
    {
      kind: 'approval',
      id: 'ap3',
      toolCallId: 't6',
      runId: 'r1',
      tool: 'edit',
      risk: 'destructive',
      args: '{"path":"src/app.ts","edits":[{"search":"parse(raw)","replace":"parseOptions(raw)"}]}',
      diff,
      createdAt: Date.now(),
      state: 'approved',
      decision: 'yes',
      edited: true,
    },
    {
      kind: 'approval',
      id: 'ap4',
      toolCallId: 't7',
      runId: 'r1',
      tool: 'patch',
      risk: 'destructive',
      args: '{"path":"src/util/helpers/deeply/nested/folder/options-normalization.ts","patch":"…"}',
      diff: '--- a/src/util/helpers/deeply/nested/folder/options-normalization.ts\n+++ b/src/util/helpers/deeply/nested/folder/options-normalization.ts\n@@ -1,2 +1,1 @@\n-a\n-b\n+c\n',
      createdAt: Date.now(),
      state: 'approved',
      decision: 'allow_pattern',
      error: 'approval pattern exceeds or does not match the requested scope',
    },
    {
      kind: 'approval',
      id: 'ap1',
      toolCallId: 't4',
      tool: 'bash',
      risk: 'medium',
      args: '{"command":"rm -rf build && npm run build","timeout":120}',
      createdAt: Date.now(),
      state: 'pending',
      suggestedPattern: 'rm -rf build*',
    },
    {
      kind: 'approval',
      id: 'ap2',
      toolCallId: 't5',
      tool: 'write_file',
      risk: 'medium',
      args: '{"path":"src/cache.ts","content":"export const cache = new Map();\\n"}',
      diff: '--- a/src/cache.ts\n+++ b/src/cache.ts\n@@ -0,0 +1 @@\n+export const cache = new Map();\n',
      createdAt: Date.now(),
      state: 'pending',
      suggestedPattern: 'src/**',
    },
  ];
  s.items = items;
  return s;
}

export function longState(messages: number): SessionState {
  const s = richState();
  s.run = { status: 'idle' };
  s.items = [];
  for (let i = 0; i < messages; i++) {
    if (i % 2 === 0) s.items.push({ kind: 'user', id: `u${i}`, text: `Question number ${i}: how does part ${i} work?`, images: 0 });
    else if (i % 10 === 5)
      s.items.push({
        kind: 'tool',
        id: `t${i}`,
        name: 'read_file',
        args: `{"path":"src/file${i}.ts"}`,
        status: 'success',
        output: 'x',
        files: [],
      });
    else s.items.push({ kind: 'assistant', id: `a${i}`, text: longReply(300 + (i % 7) * 200), thinking: '', streaming: false });
  }
  return s;
}

export function firstRunState(): SessionState {
  const s = initialSessionState('embedded');
  s.core.status = 'ready';
  return s;
}

/** An SCV server mid-turn: its own queue (one long prompt), progress lines on a running tool, a write approval with the server's summary. */
export function scvState(): SessionState {
  const s = initialSessionState('scv');
  s.core = { kind: 'scv', status: 'ready', capabilities: ['server_queue', 'tool_progress'], version: '0.3.12' };
  s.run = { status: 'waiting_approval', runId: 'turn-2' };
  s.anyLoggedIn = true;
  s.authed = true;
  s.provider = 'scv';
  s.models = [{ id: 'gpt-5-codex', provider: 'scv', contextWindow: 272_000 }];
  s.model = 'gpt-5-codex';
  s.approvalMode = 'destructive';
  s.usage = { tokensIn: 12_400, tokensOut: 1800, cachedTokens: 0 };
  s.serverQueue = {
    paused: false,
    entries: [
      { id: 'q-1', revision: 3, prompt: 'Then run the whole test suite and fix whatever fails.' },
      {
        id: 'q-2',
        revision: 1,
        prompt:
          'Update the README:\n- the new cache option\n- how to clear it\n- the migration note for 0.4\n- and a short FAQ entry about stale caches',
      },
      {
        id: 'q-3',
        revision: 7,
        prompt: 'Finally, ' + 'summarize every change you made in this session with file names and reasons. '.repeat(6),
      },
    ],
  };
  s.items = [
    { kind: 'user', id: 'u1', text: 'Cache the parsed options per workspace.', images: 0 },
    {
      kind: 'assistant',
      id: 'a1',
      runId: 'turn-2',
      text: 'Let me look at how the options are parsed first.',
      thinking: 'hidden: SCV has no thinking stream',
      streaming: false,
    },
    {
      kind: 'tool',
      id: 'call-1',
      runId: 'turn-2',
      name: 'read',
      args: '{"path":"src/app.ts"}',
      status: 'success',
      output: '{"path":"src/app.ts","content":"…"}',
      files: [],
      progress: ['never shown once done'],
    },
    {
      kind: 'tool',
      id: 'call-2',
      runId: 'turn-2',
      name: 'bash',
      args: '{"command":"npm test -- --grep options"}',
      status: 'running',
      files: [],
      progress: ['> vitest run --grep options', ' ✓ parses defaults (3 ms)', ' ✓ caches per folder (5 ms)'],
    },
    { kind: 'checkpoint', id: 'cp-1', label: 'auto-before-destructive', auto: true },
    {
      kind: 'tool',
      id: 'call-3',
      runId: 'turn-2',
      name: 'write',
      args: '{"path":"src/cache.ts","content":"export const cache = new Map();\\n","mode":"create"}',
      status: 'awaiting_approval',
      files: [],
    },
    {
      kind: 'approval',
      id: 'apv-1',
      toolCallId: 'call-3',
      runId: 'turn-2',
      tool: 'write',
      risk: 'destructive',
      args: '{"path":"src/cache.ts","content":"export const cache = new Map();\\n","mode":"create"}',
      createdAt: Date.now(),
      state: 'pending',
      summary: 'Create src/cache.ts (32 bytes)',
    },
  ];
  return s;
}
