import type { ApprovalMode } from '../../shared/sessionState';
import type { LaunchSettings } from '../channel/launchSettings';

/** A `set_config` key both cores change while running (upstream's names). */
export type LiveConfigKey = 'bash_timeout_secs' | 'auto_compact';

export interface LiveConfig {
  key: LiveConfigKey;
  value: number | boolean;
}

/** How a change of the `catalystCode.*` launch settings reaches a running core. */
export interface SettingsChange {
  /** `set_config` for each, in the running core. */
  live: LiveConfig[];
  /** `set_approval`: the approval mode changes live too. */
  approvalMode?: ApprovalMode;
  /** Something only a new launch applies (the core's kind, path, args, env, the web tools, …). */
  restart: boolean;
}

/**
 * Splits a settings change into what the running core takes (bash timeout, auto-compact, approval mode) and what needs
 * a restart. A bash timeout set back to empty means "the core's own default", which may come from its config file:
 * only a restart knows it. An SCV server takes no `set_config`, so any change there is a restart.
 */
export function settingsChange(before: LaunchSettings, now: LaunchSettings): SettingsChange {
  const change: SettingsChange = { live: [], restart: false };
  if (before.kind === 'scv' || now.kind === 'scv') {
    change.restart = JSON.stringify(before) !== JSON.stringify(now);
    return change;
  }
  if (now.bashTimeoutSecs !== before.bashTimeoutSecs) {
    if (now.bashTimeoutSecs === undefined) change.restart = true;
    else change.live.push({ key: 'bash_timeout_secs', value: now.bashTimeoutSecs });
  }
  if (now.autoCompact !== before.autoCompact) change.live.push({ key: 'auto_compact', value: now.autoCompact });
  if (now.approvalMode !== before.approvalMode) change.approvalMode = now.approvalMode;
  const rest = (s: LaunchSettings) => JSON.stringify({ ...s, bashTimeoutSecs: 0, autoCompact: false, approvalMode: 'never' });
  if (rest(before) !== rest(now)) change.restart = true;
  return change;
}
