// Reconciles settings after all layers are applied (upstream normalize_* functions).
import { join } from 'node:path';
import { DEFAULT_SANDBOX_IMAGE, type CoreConfig } from './coreConfig';

const LIMITS = [
  ['sandboxCpus', 1, 16, 2],
  ['sandboxMemoryMb', 256, 16384, 2048],
  ['sandboxDiskMb', 256, 65536, 8192],
] as const;

export function normalizeConfig(cfg: CoreConfig): void {
  // --debug without a log file still needs somewhere to write.
  if (cfg.debug && !cfg.debugLog) cfg.debugLog = join(cfg.configDir, 'debug.jsonl');
  normalizeSandbox(cfg);
  normalizeContextThresholds(cfg);
}

function normalizeSandbox(cfg: CoreConfig): void {
  if (cfg.noNetwork) cfg.sandboxNetworkMode = 'none';
  for (const [key, min, max, fallback] of LIMITS) {
    if (cfg[key] < min || cfg[key] > max) {
      cfg.warnings.push(`${key} ${cfg[key]} is outside ${min}..${max}; using ${fallback}`);
      cfg[key] = fallback;
    }
  }
  if (!cfg.sandboxImage.trim()) cfg.sandboxImage = DEFAULT_SANDBOX_IMAGE;
  const valid = cfg.sandboxEnvAllowlist.filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (valid.length !== cfg.sandboxEnvAllowlist.length) {
    const bad = cfg.sandboxEnvAllowlist.filter((n) => !valid.includes(n));
    cfg.warnings.push(`ignored invalid sandbox env allowlist entries: ${bad.join(', ')}`);
    cfg.sandboxEnvAllowlist = valid;
  }
}

/** Compaction at most at 95 %; digesting off (0) or strictly before compaction. */
function normalizeContextThresholds(cfg: CoreConfig): void {
  if (!(cfg.contextCompactAt > 0 && cfg.contextCompactAt <= 0.95)) {
    cfg.warnings.push(`context_compact_at ${cfg.contextCompactAt} is invalid; using 0.9`);
    cfg.contextCompactAt = 0.9;
  }
  if (!(cfg.contextDigestAt >= 0 && cfg.contextDigestAt < cfg.contextCompactAt)) {
    const replacement = Math.min(0.7, Math.max(0, cfg.contextCompactAt - 0.05));
    cfg.warnings.push(`context_digest_at ${cfg.contextDigestAt} is invalid; using ${replacement}`);
    cfg.contextDigestAt = replacement;
  }
}
