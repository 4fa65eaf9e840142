// Where sessions live on disk, shared by the core (which writes them) and clients (which pick one to resume).
// The layout is upstream's: ~/.config/catalyst-code/sessions/<fnv1a64 hex of the absolute workspace>/<name>.jsonl.
import path from 'node:path';

const FNV_OFFSET_BASIS = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;
const CHECKPOINT_INDEX_SUFFIX = '.checkpoints.jsonl';

function fnv1a64(s: string): bigint {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of Buffer.from(s, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash;
}

/** FNV-1a 64-bit of the UTF-8 bytes of `s`, as 16 lowercase hex digits. */
export function fnv1a64Hex(s: string): string {
  return fnv1a64(s).toString(16).padStart(16, '0');
}

/**
 * The per-workspace sessions directory shared with the upstream TUI and web hub.
 * Upstream formats the hash with Go's `%x` (TUI) and JS `toString(16)` (web), i.e. WITHOUT zero padding,
 * so for a hash whose top nibble is 0 the directory name has fewer than 16 digits. We match that
 * byte-for-byte; otherwise 1 workspace in 16 would not see its upstream sessions.
 */
export function sessionsDirFor(configDir: string, workspaceAbs: string): string {
  return path.join(configDir, 'sessions', fnv1a64(path.resolve(workspaceAbs)).toString(16));
}

/** A conversation file, as opposed to a checkpoint index that shares the `.jsonl` extension (upstream bug §8.2). */
export function isSessionFileName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.endsWith(CHECKPOINT_INDEX_SUFFIX);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function subMillisecondNanos(): number {
  return Number(process.hrtime.bigint() % 1_000_000n);
}

/**
 * '<YYYY-MM-DD_HH-MM-SS>_<9-digit ns>.jsonl' in local time, as the TUI names new sessions.
 * A Date only has millisecond precision; when `now` is omitted the sub-millisecond digits come from
 * the monotonic clock so two names minted in the same millisecond still differ.
 */
export function timestampedSessionName(now?: Date): string {
  const t = now ?? new Date();
  const stamp =
    `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}` +
    `_${pad(t.getHours())}-${pad(t.getMinutes())}-${pad(t.getSeconds())}`;
  const nanos = t.getMilliseconds() * 1_000_000 + (now ? 0 : subMillisecondNanos());
  return `${stamp}_${pad(nanos, 9)}.jsonl`;
}
