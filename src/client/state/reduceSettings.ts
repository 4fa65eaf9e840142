import type { SessionState } from '../../shared/sessionState';
import { type UntrustedEvent, str } from './eventFields';
import { addNotice } from './reduceNotices';

/** The core's answer to `set_config` (a setting changed without a restart): a quiet notice with the new value. */
export function reduceConfigChanged(s: SessionState, e: UntrustedEvent<'config_changed'>): SessionState {
  const key = str(e.key);
  return key ? addNotice(s, { level: 'info', text: configChangedText(key, e.value) }) : s;
}

/** The words of a `config_changed` notice. */
export function configChangedText(key: string, value: unknown): string {
  if (key === 'bash_timeout_secs' && typeof value === 'number') return `Shell commands now time out after ${value} s.`;
  if (key === 'auto_compact' && typeof value === 'boolean') return `Auto-compact is ${value ? 'on' : 'off'}.`;
  return `Setting ${key} is now ${JSON.stringify(value) ?? String(value)}.`;
}
