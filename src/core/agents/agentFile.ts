/**
 * Agent markdown files: upstream's flat `key: value` frontmatter (no YAML lists, no nesting) and the body as the
 * agent's prompt (research A:46-90).
 */
import { commaList, parseFrontmatter } from '../platform/frontmatter';
import type { AgentDefinition, AgentSource } from './types';

/** pi-style tool names, as upstream maps them (`normalize_tool`). */
const TOOL_ALIASES: Readonly<Record<string, string>> = { read: 'read_file', find: 'glob', ls: 'list_dir', write: 'write_file' };

export function normalizeToolName(name: string): string {
  return Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name;
}

/** The agent a file defines, or undefined when it names none (upstream skips such files silently). */
export function parseAgentFile(content: string, source: AgentSource, path?: string): AgentDefinition | undefined {
  const { fields, body } = parseFrontmatter(content);
  const name = fields
    .get('name')
    ?.split(/\s+/)
    .find((token) => token !== '');
  if (!name) return undefined;
  const defaultContext = fields.get('defaultContext');
  const maxDepth = fields.get('maxSubagentDepth');
  const agent: AgentDefinition = {
    name,
    description: fields.get('description') ?? '',
    tools: commaList(fields.get('tools')).map(normalizeToolName),
    fallbackModels: commaList(fields.get('fallbackModels')),
    thinking: fields.get('thinking') || 'medium',
    systemPromptMode: fields.get('systemPromptMode') === 'append' ? 'append' : 'replace',
    inheritProjectContext: fields.get('inheritProjectContext') === 'true',
    defaultContext: defaultContext === 'fork' ? 'fork' : 'fresh',
    skills: commaList(fields.get('skills')),
    defaultReads: commaList(fields.get('defaultReads')),
    disabled: fields.get('disabled') === 'true',
    source,
    prompt: body,
  };
  const model = fields.get('model');
  if (model) agent.model = model;
  const output = fields.get('output');
  if (output) agent.output = output;
  if (maxDepth !== undefined && /^\d+$/.test(maxDepth)) agent.maxSubagentDepth = Number(maxDepth);
  if (path !== undefined) agent.path = path;
  return agent;
}

/** The file that defines `agent`: parsing it gives the same definition back (the source and path aside). */
export function renderAgentFile(agent: AgentDefinition): string {
  const lines = [
    `name: ${agent.name}`,
    `description: ${agent.description}`,
    agent.tools.length > 0 ? `tools: ${agent.tools.join(', ')}` : undefined,
    agent.model ? `model: ${agent.model}` : undefined,
    agent.fallbackModels.length > 0 ? `fallbackModels: ${agent.fallbackModels.join(', ')}` : undefined,
    `thinking: ${agent.thinking}`,
    `systemPromptMode: ${agent.systemPromptMode}`,
    `inheritProjectContext: ${agent.inheritProjectContext}`,
    agent.defaultContext === 'fork' ? 'defaultContext: fork' : undefined,
    agent.skills.length > 0 ? `skills: ${agent.skills.join(', ')}` : undefined,
    agent.output ? `output: ${agent.output}` : undefined,
    agent.defaultReads.length > 0 ? `defaultReads: ${agent.defaultReads.join(', ')}` : undefined,
    agent.maxSubagentDepth !== undefined ? `maxSubagentDepth: ${agent.maxSubagentDepth}` : undefined,
  ].filter((line) => line !== undefined);
  return `---\n${lines.join('\n')}\n---\n\n${agent.prompt}\n`;
}
