import type { SessionState } from '../shared/sessionState';
import { type UntrustedEvent, str } from './eventFields';
import { configChangedText } from './liveSettings';
import { addNotice } from './reduceNotices';

/** The core's answer to `set_config` (a setting changed without a restart): a quiet notice with the new value. */
export function reduceConfigChanged(s: SessionState, e: UntrustedEvent<'config_changed'>): SessionState {
  const key = str(e.key);
  return key ? addNotice(s, { level: 'info', text: configChangedText(key, e.value) }) : s;
}
