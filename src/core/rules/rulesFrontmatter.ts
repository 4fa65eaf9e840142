/**
 * When a rules file with a frontmatter applies. GitHub Copilot's `.github/instructions/*.instructions.md`: `applyTo`
 * globs (comma-separated); without them Copilot applies the file only when attached by hand. Cursor's
 * `.cursor/rules/*.mdc`: `alwaysApply: true`, else `globs`, else a `description` the agent judges relevance by; with
 * none of them the rule is manual. The prompt carries what the file says (in its heading) and the body without the
 * frontmatter; a manual-only file is skipped, named as such.
 */
import { commaList, parseFrontmatter } from '../platform/frontmatter';

export type Applicability = { applies: true; when?: string; body: string } | { applies: false; reason: 'manual_only' };

const WHOLE_TREE = new Set(['**', '**/*', '*']);

export function applicability(kind: 'copilot' | 'cursor', text: string): Applicability {
  const { fields, body } = parseFrontmatter(text);
  if (kind === 'cursor' && fields.get('alwaysApply') === 'true') return { applies: true, body };
  const globs = globList(fields.get(kind === 'copilot' ? 'applyTo' : 'globs'));
  if (globs.length > 0) {
    if (globs.some((g) => WHOLE_TREE.has(g))) return { applies: true, body };
    return { applies: true, when: `files matching ${globs.join(', ')}`, body };
  }
  const description = fields.get('description');
  if (kind === 'cursor' && description) return { applies: true, when: `tasks where it is relevant: ${description}`, body };
  return { applies: false, reason: 'manual_only' };
}

/** `a, b`, or a flow list `["a", "b"]`. */
function globList(value: string | undefined): string[] {
  const inner = value?.trim().replace(/^\[(.*)\]$/, '$1');
  return commaList(inner)
    .map((g) => g.replace(/^(["'])(.*)\1$/, '$2').trim())
    .filter(Boolean);
}
