// Session states for the component suites, built with the real types: a renamed field fails to compile here.
import { initialSessionState, type CoreKind, type SessionState, type TranscriptItem } from '../../../src/shared/sessionState';

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
