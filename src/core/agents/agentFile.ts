/**
 * Agent markdown files: upstream's flat `key: value` frontmatter (no YAML lists, no nesting) and the body as the
 * agent's prompt (research A:46-90).
 */
import type { AgentDefinition, AgentSource } from './types';

export interface Frontmatter {
  fields: Map<string, string>;
  body: string;
}

/**
 * Without an opening `---` there is no frontmatter (so no name, and the file is skipped). Each line splits at its first
 * `:`; blank lines, `#` comments and lines without a colon (YAML list items) are ignored; one pair of quotes is stripped.
 */
export function parseFrontmatter(content: string): Frontmatter {
  const text = content.replace(/\r\n/g, '\n');
  const fields = new Map<string, string>();
  if (!text.startsWith('---')) return { fields, body: text.trim() };
  const close = text.indexOf('\n---');
  if (close <= 3) return { fields, body: text };
  for (const line of text.slice(4, close).split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    fields.set(line.slice(0, colon).trim(), unquoted(line.slice(colon + 1).trim()));
  }
  return { fields, body: text.slice(close + 4).trim() };
}

function unquoted(value: string): string {
  const quoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0];
  return quoted ? value.slice(1, -1) : value;
}

/** pi-style tool names, as upstream maps them (`normalize_tool`). */
const TOOL_ALIASES: Readonly<Record<string, string>> = { read: 'read_file', find: 'glob', ls: 'list_dir', write: 'write_file' };

export function normalizeToolName(name: string): string {
  return Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name;
}

/** A comma list, items trimmed, empty items dropped. */
export function commaList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
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
