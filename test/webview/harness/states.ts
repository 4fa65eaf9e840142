// Session states for the component suites, built with the real types: a renamed field fails to compile here.
import {
  initialSessionState,
  type AssistantItem,
  type CoreKind,
  type SessionState,
  type SubagentItem,
  type ToolItem,
  type TranscriptItem,
} from '../../../src/shared/sessionState';

/** A ready core with one logged-in provider and its models: the chat as most users see it. */
export function readyState(
  items: TranscriptItem[] = [],
  kind: CoreKind = 'embedded',
  capabilities: string[] = ['allow_pattern', 'checkpoint', 'approval_edited_content'],
): SessionState {
  const s = initialSessionState(kind);
  s.core = { kind, status: 'ready', capabilities, version: '0.2.0' };
  s.anyLoggedIn = true;
  s.authed = true;
  s.models = [
    { id: 'anthropic/claude-sonnet-4', name: 'Claude Sonnet 4', provider: 'openrouter', thinkingLevels: ['low', 'medium', 'high'] },
    { id: 'deepseek/deepseek-chat', name: 'DeepSeek V3', provider: 'openrouter' },
    { id: 'qwen3-coder', provider: 'ollama' },
  ];
  s.model = 'anthropic/claude-sonnet-4';
  s.items = items;
  return s;
}

/** The same, with a run going. */
export function runningState(items: TranscriptItem[] = [], kind: CoreKind = 'embedded'): SessionState {
  const s = readyState(items, kind);
  s.run = { status: 'running', runId: 'r1' };
  return s;
}

export const BASH_ARGS = JSON.stringify({ command: 'rm -rf build && npm run build' });
export const WRITE_ARGS = JSON.stringify({ path: 'src/cache.ts', content: 'export const cache = new Map();\n' });
export const WRITE_DIFF = '--- a/src/cache.ts\n+++ b/src/cache.ts\n@@ -0,0 +1 @@\n+export const cache = new Map();\n';

/** A child run of a `subagent` call (tool card `sub1` of run r1), as the reducer keeps it. */
export function subagentRun(id: string, agent: string, task: string, overrides: Partial<SubagentItem> = {}): SubagentItem {
  return {
    kind: 'subagent',
    id,
    runId: 'r1',
    parentRunId: 'r1',
    parentToolCallId: 'sub1',
    mode: 'single',
    agent,
    agents: [agent],
    task,
    model: 'deepseek/deepseek-chat',
    depth: 0,
    phase: 'streaming',
    state: 'running',
    toolCount: 0,
    tokensIn: 0,
    tokensOut: 0,
    startedAt: 0,
    elapsedMs: 0,
    target: `subagent-${agent}-${id.replace(/-/g, '')}`,
    ...overrides,
  };
}

/** A child's streamed reply. */
export function childReply(runId: string, n: number, text: string, streaming = false): AssistantItem {
  return { kind: 'assistant', id: `sa:${runId}:m${n}`, runId: 'r1', childRunId: runId, text, thinking: '', streaming };
}

/** A child's tool call (ids are `sa:<run>:<call_id>`: call ids collide across children). */
export function childTool(runId: string, callId: string, name: string, args: object, status: ToolItem['status'] = 'success'): ToolItem {
  return { kind: 'tool', id: `sa:${runId}:${callId}`, runId: 'r1', childRunId: runId, name, args: JSON.stringify(args), status, files: [] };
}

/** The parent's `subagent` call that fans out to three workers (a parallel batch, run-1). */
export function fanOutItems(): TranscriptItem[] {
  return [
    { kind: 'user', id: 'u1', text: 'Split the refactor across three workers', images: 0 },
    {
      kind: 'tool',
      id: 'sub1',
      runId: 'r1',
      name: 'subagent',
      args: JSON.stringify({
        tasks: [
          { agent: 'worker', task: 'A' },
          { agent: 'worker', task: 'B' },
          { agent: 'scout', task: 'C' },
        ],
      }),
      status: 'running',
      files: [],
    },
    subagentRun('run-1', '', 'parallel (3 tasks)', { mode: 'parallel', agents: ['worker', 'worker', 'scout'], phase: 'start' }),
    subagentRun('run-1-0', 'worker', '[child-A] rename the cache module', { parentRunId: 'run-1' }),
    subagentRun('run-1-1', 'worker', '[child-B] update the imports', { parentRunId: 'run-1' }),
    subagentRun('run-1-2', 'scout', '[child-C] list the callers', { parentRunId: 'run-1' }),
    childReply('run-1-0', 0, 'Reading the module first.', true),
    childReply('run-1-1', 0, 'Looking for imports.', true),
    childTool('run-1-2', 'call_1', 'grep', { pattern: 'cache' }, 'running'),
  ];
}
