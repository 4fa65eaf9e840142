/** Upstream's capability check (`validate_manifest_capabilities`): what a manifest must declare for what it uses. */
export const PLUGIN_PROTOCOL_VERSION = 1;

const KNOWN_CAPABILITIES: ReadonlySet<string> = new Set([
  'read_workspace',
  'write_workspace',
  'execute_subprocess',
  'access_network',
  'receive_prompts',
  'receive_tool_arguments',
  'receive_model_responses',
  'access_secrets',
  'register_tools',
  'register_commands',
  'register_providers',
  'register_memory_backend',
]);

type Json = Record<string, unknown>;

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : []);
const present = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The capabilities the manifest's features need. */
export function requiredCapabilities(m: Json): Set<string> {
  const required = new Set<string>();
  const hooks = present(m.hooks) ? Object.entries(m.hooks as Json) : [];
  const tools = list(m.tools);
  const commands = list(m.commands);
  const scriptCommand = commands.some((c) => typeof c.script === 'string' && c.script.trim() !== '');
  if (hooks.length > 0 || tools.length > 0 || scriptCommand || present(m.oauth) || present(m.memory_provider)) {
    required.add('execute_subprocess');
  }
  for (const [name, hook] of hooks) {
    if (present(hook) && (hook as Json).pass_args === true) required.add('receive_tool_arguments');
    if (['pre_input', 'pre_context', 'pre_turn', 'turn_start'].includes(name)) required.add('receive_prompts');
    if (['post_tool', 'turn_end', 'session_stop'].includes(name)) required.add('receive_model_responses');
  }
  if (tools.length > 0) {
    required.add('register_tools');
    for (const t of tools) required.add(t.kind === 'readonly' ? 'read_workspace' : 'write_workspace');
  }
  if (commands.length > 0) required.add('register_commands');
  if (present(m.oauth)) for (const c of ['register_providers', 'access_network', 'access_secrets']) required.add(c);
  if (present(m.memory_provider)) required.add('register_memory_backend');
  return required;
}

/** The plugin's capabilities (sorted), or an Error with upstream's text. */
export function validateCapabilities(m: Json): string[] {
  const version = typeof m.protocol_version === 'number' ? m.protocol_version : 1;
  if (version > PLUGIN_PROTOCOL_VERSION) {
    throw new Error(`plugin protocol version ${version} is newer than supported (${PLUGIN_PROTOCOL_VERSION})`);
  }
  const required = requiredCapabilities(m);
  if (!Array.isArray(m.capabilities)) return [...required].sort();
  const declared = new Set(m.capabilities.filter((c): c is string => typeof c === 'string'));
  const unknown = [...declared].filter((c) => !KNOWN_CAPABILITIES.has(c));
  if (unknown.length > 0) throw new Error(`plugin declares unknown capabilities: ${unknown.join(', ')}`);
  const missing = [...required].filter((c) => !declared.has(c)).sort();
  if (missing.length > 0) {
    throw new Error(`plugin is denied because its manifest is missing required capabilities: ${missing.join(', ')}`);
  }
  return [...declared].sort();
}
