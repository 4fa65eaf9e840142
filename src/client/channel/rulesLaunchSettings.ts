/**
 * The `catalystCode.rules.*` settings as the core's CATALYST_CODE_RULES_OFF. A source is off when any settings scope
 * turns it off: a repository's .vscode/settings.json may turn rules off, but cannot turn back on what the user turned
 * off in their own settings (the core applies the same rule to the repository's settings.json).
 */

/** The scopes of one setting, as `WorkspaceConfiguration.inspect` gives them. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** Setting key under `catalystCode.` → the core's source id. */
export const RULES_SETTING_SOURCES = {
  'rules.agentsMd': 'agents_md',
  'rules.claudeMd': 'claude_md',
  'rules.copilotInstructions': 'copilot_instructions',
  'rules.copilotPathInstructions': 'copilot_path_instructions',
  'rules.clinerules': 'clinerules',
  'rules.cursorProjectRules': 'cursor_project_rules',
  'rules.cursorrules': 'cursorrules',
} as const;

export function readRulesOff(inspect: (key: string) => InspectedSetting | undefined): string[] {
  if (turnedOff(inspect('rules.enabled'))) return ['all'];
  return Object.entries(RULES_SETTING_SOURCES)
    .filter(([key]) => turnedOff(inspect(key)))
    .map(([, source]) => source);
}

/** The core's environment entry for the sources turned off (none: no entry, the core reads every source). */
export function rulesOffEnvironment(off: readonly string[]): Record<string, string> {
  return off.length > 0 ? { CATALYST_CODE_RULES_OFF: off.join(',') } : {};
}

function turnedOff(s: InspectedSetting | undefined): boolean {
  return !!s && [s.defaultValue, s.globalValue, s.workspaceValue, s.workspaceFolderValue].some((v) => v === false);
}
