/** Test support (used only by *.test.ts): a real temporary workspace and a ToolContext over it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../src/core/memory/memoryStore';
import { coreTools } from '../../src/core/app/allTools';
import type { TodoItem, ToolContext } from '../../src/core/tools/types';

export interface TestWorkspace {
  root: string;
  write(rel: string, content: string | Buffer): string;
  read(rel: string): string;
  exists(rel: string): boolean;
  context(overrides?: Partial<ToolContext>): ToolContext;
  cleanup(): void;
}

export function makeTestWorkspace(): TestWorkspace {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'catalyst-tools-')));
  return {
    root,
    write(rel, content) {
      const abs = path.join(root, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
      return abs;
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(root, rel)),
    context: (overrides = {}) => makeContext(root, overrides),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function makeContext(workspace: string, overrides: Partial<ToolContext>): ToolContext {
  let todos: TodoItem[] = [];
  return {
    workspace,
    signal: new AbortController().signal,
    bashTimeoutSecs: 30,
    maxBashTimeoutSecs: 60,
    diagTimeoutSecs: 120,
    requestSudo: async () => ({ approved: false }),
    ask: async () => null,
    todos: { get: () => todos, set: (items) => (todos = items) },
    loadedTools: coreTools.newLoadedTools(),
    presenceDir: path.join(workspace, '.presence'),
    depth: 0,
    memory: new MemoryStore({ workspace: path.join(workspace, '.memory-workspace'), global: path.join(workspace, '.memory-global') }),
    ...overrides,
  };
}
