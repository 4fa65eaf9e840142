/**
 * The hosts `fetch` refuses by default (an empty fetch_allowlist): loopback, private, link-local, CGNAT and unspecified
 * addresses, and the names that stand for one (localhost, cloud metadata) — upstream's list (research §9.1).
 */
import { isIP } from 'node:net';

const PRIVATE_NAMES: ReadonlySet<string> = new Set([
  'localhost',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'metadata.aws.internal',
  'metadata.azure.com',
  'ip6-allnodes',
  'ip6-allrouters',
  'broadcasthost',
]);

/** A host as the URL names it (lowercase, no brackets, no trailing dot): a private name or a private IP literal. */
export function isPrivateHost(host: string): boolean {
  const name = host.replace(/\.$/, '').toLowerCase();
  if (PRIVATE_NAMES.has(name) || name.endsWith('.localhost')) return true;
  return isIP(name) !== 0 && isPrivateAddress(name);
}

/** An IPv4 or IPv6 address in a range that must not be reached without an explicit allowlist entry. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return isPrivateV4(ip.split('.').map(Number));
  if (family === 6) return isPrivateV6(ip.toLowerCase());
  return false;
}

function isPrivateV4([a, b]: number[]): boolean {
  return (
    a === 127 || // loopback
    a === 10 ||
    a === 0 || // "this network", unspecified
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) // CGNAT
  );
}

function isPrivateV6(ip: string): boolean {
  const groups = expandV6(ip);
  if (!groups) return false;
  const first = groups[0];
  if (groups.every((g, i) => g === 0 || (i === 7 && g === 1))) return true; // :: and ::1
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xfe00) === 0xfc00) return true; // unique-local fc00::/7
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  return mapped && isPrivateV4([groups[6] >> 8, groups[6] & 0xff]);
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part folded into the last two). */
function expandV6(ip: string): number[] | undefined {
  let text = ip.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
