import type { ScvApprovalPolicy } from './coreLaunch';
import { APPROVAL_MODES, CORE_KINDS, type ApprovalMode, type CoreKind } from '../../shared/sessionState';

/** The `catalystCode.*` settings that decide how a core is launched (read at each start, so a restart applies edits). */
export interface LaunchSettings {
  kind: CoreKind;
  path: string;
  args: string[];
  env: Record<string, string>;
  approvalMode: ApprovalMode;
  defaultModel: string;
  bashTimeoutSecs?: number;
  autoCompact: boolean;
  /** `catalystCode.scv.approvalPolicy`: SCV's `--approval-policy` (only an SCV core uses it). */
  scvApprovalPolicy: ScvApprovalPolicy;
  /** `catalystCode.web.enabled`: false turns the core's fetch and web_search off (CATALYST_CODE_WEB_TOOLS=0). */
  webEnabled: boolean;
}

const SCV_POLICIES: readonly ScvApprovalPolicy[] = ['on-risk', 'always', 'never'];

/** Reads the settings through `get` (a WorkspaceConfiguration scoped to the folder); wrong types fall back to defaults. */
export function readLaunchSettings(get: (key: string) => unknown): LaunchSettings {
  const kind = get('core.kind');
  const mode = get('approvalMode');
  const timeout = get('bashTimeoutSecs');
  const autoCompact = get('autoCompact');
  const scvPolicy = get('scv.approvalPolicy');
  return {
    kind: (CORE_KINDS as readonly unknown[]).includes(kind) ? (kind as CoreKind) : 'embedded',
    path: typeof get('core.path') === 'string' ? (get('core.path') as string).trim() : '',
    args: stringArray(get('core.args')),
    env: stringRecord(get('core.env')),
    approvalMode: (APPROVAL_MODES as readonly unknown[]).includes(mode) ? (mode as ApprovalMode) : 'destructive',
    defaultModel: typeof get('defaultModel') === 'string' ? (get('defaultModel') as string).trim() : '',
    bashTimeoutSecs: typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 ? timeout : undefined,
    autoCompact: typeof autoCompact === 'boolean' ? autoCompact : true,
    scvApprovalPolicy: SCV_POLICIES.includes(scvPolicy as ScvApprovalPolicy) ? (scvPolicy as ScvApprovalPolicy) : 'on-risk',
    webEnabled: get('web.enabled') !== false,
  };
}

/** Environment for the core: the user's extra variables plus the settings that have an env form upstream too. */
export function coreEnvironment(s: LaunchSettings): Record<string, string> {
  const env = { ...s.env, CATALYST_CODE_AUTO_COMPACT: s.autoCompact ? '1' : '0' };
  // Only ever turns the web tools off: a workspace setting cannot turn back on what the user's config.json turned off.
  return s.webEnabled ? env : { ...env, CATALYST_CODE_WEB_TOOLS: '0' };
}

function stringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function stringRecord(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (typeof val === 'string' || typeof val === 'number' || typeof val === 'boolean'))
      out[k] = String(val);
  }
  return out;
}
