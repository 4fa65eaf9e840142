// Parsers for the enumerated settings, shared by the file, env and CLI layers.
import type { ApprovalMode, SandboxNetworkMode } from './coreConfig';

/** Upstream aliases; legacy firejail/seatbelt values mean "sandbox on". Anything else is none. */
export function parseSandbox(raw: string): 'none' | 'microsandbox' {
  const s = raw.trim().toLowerCase();
  const on = ['microsandbox', 'msb', 'on', 'true', 'enabled', 'enable', 'firejail', 'fj', 'seatbelt', 'macos', 'sandbox-exec'];
  return on.includes(s) ? 'microsandbox' : 'none';
}

export function parseSandboxNetwork(raw: string): SandboxNetworkMode {
  const s = raw.trim().toLowerCase();
  if (s === 'allowlist' || s === 'allow') return 'allowlist';
  if (s === 'none' || s === 'off' || s === 'disabled') return 'none';
  return 'restricted';
}

export function parseShell(raw: string): 'bash' | 'powershell' | undefined {
  const s = raw.trim().toLowerCase();
  if (s === 'bash' || s === 'sh') return 'bash';
  if (s === 'powershell' || s === 'pwsh') return 'powershell';
  return undefined;
}

/** never/off/none/auto → never; destructive; always/all/y → always; anything else → undefined. */
export function parseApprovalMode(s: string | undefined): ApprovalMode | undefined {
  switch (s?.trim().toLowerCase()) {
    case 'never':
    case 'off':
    case 'none':
    case 'auto':
      return 'never';
    case 'destructive':
      return 'destructive';
    case 'always':
    case 'all':
    case 'y':
      return 'always';
    default:
      return undefined;
  }
}
