/** Upstream's start-up `plugins{dir, disabled}` settings (research A §7.1). */
import { isJsonObject, nonEmptyString, stringArray } from '../platform/jsonValue';

export interface PluginSettings {
  /** The workspace plugins folder; relative to the workspace (default `.catalyst-code/plugins`). */
  dir?: string;
  /** Plugin names disabled at launch (enable_plugin turns one on again). */
  disabled: string[];
}

export const DEFAULT_WORKSPACE_PLUGINS_DIR = '.catalyst-code/plugins';

export function applyPluginSettings(settings: PluginSettings, raw: unknown, warn: (msg: string) => void): void {
  if (raw === undefined) return;
  if (!isJsonObject(raw)) {
    warn('plugins must be an object {dir?, disabled?}; ignored');
    return;
  }
  if (raw.dir !== undefined) {
    const dir = nonEmptyString(raw.dir);
    if (dir) settings.dir = dir.trim();
    else warn('plugins.dir must be a non-empty string; ignored');
  }
  if (raw.disabled !== undefined) {
    const names = stringArray(raw.disabled);
    if (names) settings.disabled = names;
    else warn('plugins.disabled must be an array of plugin names; ignored');
  }
}
