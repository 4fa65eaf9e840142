/** The first messages of a child agent's conversation (research A:239-294; upstream's `run_agent_inner`). */
import { readFileSync, realpathSync } from 'node:fs';
import type { AgentDefinition } from '../agents/types';
import type { ChatMessage } from '../providers/types';
import { scrubText } from '../runtime/redact';
import { PathError, isRestrictedPath, resolveWorkspacePath, toWorkspaceRelative } from '../platform/workspace';

export const FORK_MESSAGES = 40;
export const FORK_HEADER = '--- inherited parent context ---';
export const READ_BYTES = 8000;

export interface ChildConversationInput {
  agent: AgentDefinition;
  task: string;
  context: 'fresh' | 'fork';
  /** The shared base system prompt (the project context). */
  basePrompt: string;
  /** The intercom bridge's instructions, when the child has a supervisor to contact. */
  bridge?: string;
  /** The skills the agent's `skills:` frontmatter names (skillPrompts.subagentSkillsBlock). */
  skills?: string;
  /** The parent's conversation, for a fork. */
  parentMessages: readonly ChatMessage[];
  workspace: string;
  secrets: readonly string[];
}

export function childMessages(input: ChildConversationInput): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: childSystemPrompt(input) }];
  if (input.context === 'fork') messages.push(...forkedContext(input.parentMessages, input.secrets));
  const reads = referenceReads(input.agent.defaultReads, input.workspace);
  if (reads) messages.push({ role: 'system', content: reads });
  messages.push({ role: 'user', content: input.context === 'fork' ? `Task:\n${input.task}` : input.task });
  return messages;
}

/** replace: [project context if inherited] + body; append: the base prompt + body; then the agent's skills and the bridge. */
export function childSystemPrompt(input: Pick<ChildConversationInput, 'agent' | 'basePrompt' | 'bridge' | 'skills'>): string {
  const { agent } = input;
  const parts: string[] = [];
  if (agent.systemPromptMode === 'append' || agent.inheritProjectContext) parts.push(input.basePrompt);
  if (agent.prompt.trim()) parts.push(agent.prompt.trim());
  if (input.skills) parts.push(input.skills);
  if (input.bridge) parts.push(input.bridge);
  return parts.join('\n\n');
}

/**
 * The parent's last 40 plain messages, reference only: system and tool messages and tool-calling assistant messages are
 * dropped, and the live secrets are scrubbed from what is left.
 */
export function forkedContext(parent: readonly ChatMessage[], secrets: readonly string[]): ChatMessage[] {
  const kept = parent.filter((m) => (m.role === 'user' || m.role === 'assistant') && !m.tool_calls?.length && textOf(m).trim());
  const recent = kept.slice(-FORK_MESSAGES).map((m) => ({ role: m.role, content: scrubText(textOf(m), secrets) }));
  if (!recent.length) return [];
  return [
    {
      role: 'system',
      content: `${FORK_HEADER}\nThe messages below are the supervisor's conversation so far, for reference only; your task follows them.`,
    },
    ...recent,
  ];
}

/**
 * `Reference files read before your task:` and each file's first 8000 bytes, confined to the workspace. A restricted
 * path (.env, .git/**…, itself or through a symlink) is skipped: read here it would bypass the approval the child's
 * read_file of it needs, and an agent file may come with the repository.
 */
export function referenceReads(paths: readonly string[], workspace: string): string | undefined {
  if (!paths.length) return undefined;
  const blocks = paths.map((p) => `--- ${p} ---\n${readConfined(p, workspace)}`);
  return ['Reference files read before your task:', ...blocks].join('\n');
}

function readConfined(path: string, workspace: string): string {
  let abs: string;
  try {
    abs = resolveWorkspacePath(workspace, path);
  } catch (err) {
    if (err instanceof PathError) return '[skipped: path is outside the workspace]';
    throw err;
  }
  if (isRestrictedPath(path) || isRestrictedPath(toWorkspaceRelative(realpathSync(workspace), abs))) {
    return '[skipped: restricted path; read it with read_file]';
  }
  try {
    const bytes = readFileSync(abs);
    if (bytes.length <= READ_BYTES) return bytes.toString('utf8');
    return bytes.subarray(0, READ_BYTES).toString('utf8') + '…';
  } catch {
    return '[skipped: unreadable]';
  }
}

function textOf(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (!m.content) return '';
  return m.content.map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}
