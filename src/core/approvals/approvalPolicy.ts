// Whether a tool call needs the user's approval (research §4.1–4.5).
import type { ApprovalMode } from '../config/coreConfig';
import { pathGlobMatches, wildcardMatches } from './globMatch';

export interface ApprovalQuestion {
  mode: ApprovalMode;
  kind: 'readonly' | 'destructive';
  /** The call touches a restricted path (.git/**, .env, ~/.ssh/**, …). */
  restricted: boolean;
  /** An `allow` permission rule matched. */
  forceAllow: boolean;
  /** The user answered "always" for this tool kind earlier in the session. */
  escalated: boolean;
  /** An `ask` permission rule matched. */
  forceAsk: boolean;
}

/**
 * Unlike upstream, where an allow rule or an escalation also silences restricted paths
 * and ask rules, here only `never` does: a restricted path or an explicit ask rule
 * always prompts under destructive and always.
 */
export function approvalRequired(a: ApprovalQuestion): boolean {
  if (a.mode === 'never') return false;
  if (a.forceAsk) return true;
  if (a.restricted) return true;
  if (a.forceAllow || a.escalated) return false;
  if (a.mode === 'always') return true;
  return a.kind === 'destructive';
}

const WILDCARD_CHARS = /[*?[\]{}()!]/;

/**
 * The allow_pattern scope check (research §4.5): the pattern a user approves must cover
 * this request without widening to everything. Rejected: empty, `*`, anything containing
 * `..`, a negation. Accepted: the target itself, or a glob with a non-empty literal prefix
 * (the part before the first wildcard) that the target starts with, that is not rooted
 * (`/`, `\`, `~`, `C:`), and that actually matches the target.
 */
export function patternCoversTarget(pattern: string, target: string): boolean {
  const p = pattern.trim();
  const t = target.trim();
  if (!p || !t || p === '*' || p.includes('..') || p.startsWith('!')) return false;
  if (p === t) return true;
  const wildcardAt = p.search(WILDCARD_CHARS);
  if (wildcardAt < 0) return false;
  const prefix = p.slice(0, wildcardAt).trim();
  if (!prefix || isRooted(prefix) || !t.startsWith(prefix)) return false;
  return wildcardMatches(p, t) || pathGlobMatches(p, t);
}

function isRooted(s: string): boolean {
  return s.startsWith('/') || s.startsWith('\\') || s.startsWith('~') || /^[A-Za-z]:/.test(s);
}
