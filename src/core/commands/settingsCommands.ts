import type { CommandOf } from '../../protocol';
import { parseApprovalMode } from '../config/configValues';
import type { CoreRuntime } from '../app/coreRuntime';

export function handleSetApproval(rt: CoreRuntime, cmd: CommandOf<'set_approval'>): void {
  const mode = parseApprovalMode(typeof cmd.mode === 'string' ? cmd.mode : undefined);
  if (!mode)
    return void rt.emit({
      type: 'error',
      code: 'invalid_command',
      message: `unknown approval mode '${String(cmd.mode)}'; use never, destructive or always`,
    });
  rt.approvals.mode = mode;
  rt.emit({ type: 'approval_changed', mode });
}

/** Ours: the session's "always" escalations and granted allow rules (`approval_escalations`), cleared first on request. */
export function handleApprovalEscalations(
  rt: CoreRuntime,
  cmd: CommandOf<'list_approval_escalations'> | CommandOf<'clear_approval_escalations'>,
): void {
  const { escalations, rules } = rt.approvals;
  if (cmd.type === 'clear_approval_escalations') {
    escalations.clear();
    rules.clearGrantedAllows();
    if (escalations.persistError) rt.emit({ type: 'info', message: `escalations cleared, but ${escalations.persistError}` });
  }
  rt.emit({ type: 'approval_escalations', kinds: escalations.list(), patterns: rules.grantedAllows() });
}

/** `set_config`: the runtime knobs we honour; values are coerced from their JSON type, unknown keys are errors. */
export function handleSetConfig(rt: CoreRuntime, cmd: CommandOf<'set_config'>): void {
  const key = String(cmd.key ?? '');
  const value = cmd.value as unknown;
  switch (key) {
    case 'bash_timeout_secs': {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0)
        return void rt.emit({ type: 'error', code: 'invalid_value', message: 'bash_timeout_secs must be a positive number' });
      rt.config.bashTimeoutSecs = Math.min(n, rt.config.maxBashTimeoutSecs);
      return void rt.emit({ type: 'config_changed', key, value: rt.config.bashTimeoutSecs });
    }
    case 'auto_compact':
      rt.config.autoCompact = value === true || value === 'true' || value === 1;
      return void rt.emit({ type: 'config_changed', key, value: rt.config.autoCompact });
    case 'sandbox':
      if (value !== 'none')
        return void rt.emit({
          type: 'error',
          code: 'unsupported',
          message: `sandbox '${String(value)}' is not supported by this core; only 'none'`,
        });
      return void rt.emit({ type: 'config_changed', key, value: 'none' });
    case 'advisor.enabled':
      rt.config.advisor = { ...rt.config.advisor, enabled: value === true || value === 'true' || value === 1 };
      return void rt.emit({ type: 'config_changed', key, value: rt.config.advisor.enabled });
    case 'advisor.model': {
      // An empty model goes back to the turn's own.
      const model = typeof value === 'string' ? value.trim() : '';
      rt.config.advisor = { enabled: rt.config.advisor.enabled, ...(model ? { model } : {}) };
      return void rt.emit({ type: 'config_changed', key, value: model || null });
    }
    default:
      rt.emit({ type: 'error', code: 'unsupported', message: `unknown config key: ${key}` });
  }
}

export function handleMemory(
  rt: CoreRuntime,
  cmd: CommandOf<'save_memory'> | CommandOf<'forget_memory'> | CommandOf<'list_memory'> | CommandOf<'refresh_memory'>,
): void {
  switch (cmd.type) {
    case 'save_memory': {
      const scope = cmd.scope === 'global' ? 'global' : 'workspace';
      const tags = Array.isArray(cmd.tags) ? cmd.tags.filter((t): t is string => typeof t === 'string') : [];
      if (typeof cmd.text !== 'string' || !cmd.text.trim())
        return void rt.emit({ type: 'error', code: 'invalid_command', message: "save_memory: 'text' must not be empty" });
      const entry = rt.memory.save(cmd.text, tags, scope);
      return void rt.emit({ type: 'memory_saved', id: entry.id, message: `memory saved (${scope})`, text: entry.text });
    }
    case 'forget_memory': {
      const scope = cmd.scope === 'global' || cmd.scope === 'workspace' ? cmd.scope : undefined;
      const removed = rt.memory.forget(String(cmd.id ?? ''), scope);
      return void rt.emit({
        type: 'memory_saved',
        id: String(cmd.id ?? ''),
        message: removed ? 'memory forgotten' : 'no memory with that id',
      });
    }
    case 'list_memory': {
      const entries = rt.memory.list();
      return void rt.emit({ type: 'memory_list', entries, count: entries.length });
    }
    case 'refresh_memory':
      return void rt.emit({ type: 'info', message: `memories refreshed (${rt.memory.list().length})` });
  }
}
