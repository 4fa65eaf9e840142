/**
 * Reads a CEO review or verify turn's last text as upstream's `parse_ceo_verdict` does (research A:895-901): a FAIL,
 * REVISE or REMAINING_GAPS marker fails, else a PASS, CERTIFY or CERTIFIED marker passes, else (no marker) it fails; the
 * gaps are the list under a `gaps:` / `remaining_gaps:` line or a `## Fixes` / `## Remaining gaps` heading.
 */
export interface CeoVerdict {
  ok: boolean;
  /** The text itself (≤2000 chars), or a stand-in when there is none. */
  summary: string;
  gaps: string[];
}

const FAIL_MARKERS = ['VERDICT: FAIL', 'VERDICT: REVISE', 'VERDICT: REMAINING_GAPS'];
const PASS_MARKERS = ['VERDICT: PASS', 'VERDICT: CERTIFY', 'VERDICT: CERTIFIED'];
const GAP_LINE_PREFIXES = ['gaps:', 'remaining_gaps:'];
const GAP_HEADINGS = ['## fixes', '## remaining gaps'];
const SUMMARY_LIMIT = 2000;

export function parseCeoVerdict(text: string): CeoVerdict {
  const upper = text.toUpperCase();
  const failed = FAIL_MARKERS.some((m) => upper.includes(m));
  const ok = !failed && PASS_MARKERS.some((m) => upper.includes(m));
  const trimmed = text.trim();
  const summary = trimmed ? trimmed.slice(0, SUMMARY_LIMIT) : ok ? 'VERDICT: PASS' : 'VERDICT: FAIL (no verdict text)';
  return { ok, summary, gaps: gapLines(text) };
}

function gapLines(text: string): string[] {
  const gaps: string[] = [];
  let inList = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const lower = line.toLowerCase();
    if (GAP_LINE_PREFIXES.some((p) => lower.startsWith(p)) || GAP_HEADINGS.some((h) => lower.startsWith(h))) {
      inList = true;
      const colon = line.indexOf(':');
      const rest = colon >= 0 ? line.slice(colon + 1).trim() : '';
      if (rest) gaps.push(rest);
      continue;
    }
    if (!inList) continue;
    if (!line || line.startsWith('VERDICT:') || line.startsWith('##')) {
      inList = false;
      continue;
    }
    const item = line.replace(/^-+/, '').replace(/^\*+/, '').trim();
    if (item) gaps.push(item);
  }
  return gaps;
}
