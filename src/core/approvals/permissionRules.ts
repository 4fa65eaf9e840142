// `permissions{allow,deny,ask}` rules such as "bash(npm test*)", "write_file(src/**)"
// or a bare "read_file" (research §4.1). Allow beats deny, deny beats ask.
import { escapesBase, normalizeRelPath, pathGlobMatches, wildcardMatches } from './globMatch';
import { splitShellCommand } from './shellSegments';

export type RuleVerdict = 'allow' | 'deny' | 'ask';

interface Rule {
  /** Lower-cased tool name, or `*` for every tool. */
  tool: string;
  /** `*` matches any target, including none. */
  pattern: string;
}

/** Tools whose target is a shell command line: patterns match each simple command. */
const COMMAND_TOOLS = new Set(['bash']);

export class PermissionRules {
  private readonly allow: Rule[];
  private readonly deny: Rule[];
  private readonly ask: Rule[];
  private readonly granted: Rule[] = [];
  /** Rule strings that could not be parsed; they are ignored. */
  readonly invalid: string[] = [];

  /** `pathRules(tool)`: the tool's patterns are globs over a workspace path (its ToolDefinition's `pathRules`). */
  constructor(
    rules: { allow: string[]; deny: string[]; ask: string[] },
    private readonly pathRules: (tool: string) => boolean,
  ) {
    this.allow = this.parseAll(rules.allow);
    this.deny = this.parseAll(rules.deny);
    this.ask = this.parseAll(rules.ask);
  }

  /**
   * `target` is what the rule patterns match: the path for file tools, the command line
   * for bash, the pattern/URL/etc. for other tools (plain `*` wildcards). For bash an
   * allow rule must cover every simple command of the line (and a line with command
   * substitution only by exact equality); a deny or ask rule fires if it matches the
   * line or any simple command in it. A path that leaves the workspace (`../x`) is never allowed by a glob.
   */
  evaluate(tool: string, target: string | undefined): RuleVerdict | undefined {
    const name = tool.toLowerCase();
    if (this.allows(name, target)) return 'allow';
    if (this.hits(this.deny, name, target)) return 'deny';
    if (this.hits(this.ask, name, target)) return 'ask';
    return undefined;
  }

  /** An allow rule the user granted in this core (allow_session, allow_pattern), on top of the configured ones. */
  addAllow(tool: string, pattern: string): void {
    const rule = { tool: tool.trim().toLowerCase(), pattern: pattern.trim() || '*' };
    this.allow.push(rule);
    this.granted.push(rule);
  }

  /** The allow rules added with addAllow, oldest first. */
  grantedAllows(): Array<{ tool: string; pattern: string }> {
    return this.granted.map((r) => ({ tool: r.tool, pattern: r.pattern }));
  }

  /** Drops the rules added with addAllow; the configured ones stay. */
  clearGrantedAllows(): void {
    for (const rule of this.granted.splice(0)) this.allow.splice(this.allow.indexOf(rule), 1);
  }

  private parseAll(list: string[]): Rule[] {
    const out: Rule[] = [];
    for (const s of list) {
      const r = parseRule(s);
      if (r) out.push(r);
      else this.invalid.push(s);
    }
    return out;
  }

  private allows(tool: string, target: string | undefined): boolean {
    const rules = this.allow.filter((r) => toolMatches(r, tool));
    if (rules.some((r) => r.pattern === '*')) return true;
    if (!target?.trim()) return false;
    if (COMMAND_TOOLS.has(tool))
      return commandAllowed(
        rules.map((r) => r.pattern),
        target,
      );
    if (this.pathRules(tool) && escapesBase(normalizeRelPath(target.trim()))) return false;
    return rules.some((r) => this.targetMatches(tool, r.pattern, target));
  }

  private hits(rules: Rule[], tool: string, target: string | undefined): boolean {
    for (const r of rules) {
      if (!toolMatches(r, tool)) continue;
      if (r.pattern === '*') return true;
      if (!target?.trim()) continue;
      if (COMMAND_TOOLS.has(tool) ? commandHit(r.pattern, target) : this.targetMatches(tool, r.pattern, target)) return true;
    }
    return false;
  }

  private targetMatches(tool: string, pattern: string, target: string): boolean {
    const t = target.trim();
    return this.pathRules(tool) ? pathGlobMatches(pattern, t) : wildcardMatches(pattern, t);
  }
}

/** "Tool(pattern)" (pattern may be empty → `*`) or a bare "Tool". */
function parseRule(s: string): Rule | undefined {
  const text = s.trim();
  const open = text.indexOf('(');
  if (open < 0) return /^[^\s()]+$/.test(text) ? { tool: text.toLowerCase(), pattern: '*' } : undefined;
  const close = text.lastIndexOf(')');
  if (close !== text.length - 1 || close < open) return undefined;
  const tool = text.slice(0, open).trim().toLowerCase();
  if (!tool) return undefined;
  return { tool, pattern: text.slice(open + 1, close).trim() || '*' };
}

function toolMatches(r: Rule, tool: string): boolean {
  return r.tool === '*' || r.tool === tool;
}

/** `npm run test:*` (Claude Code style) = the command itself or it followed by arguments. */
function commandPatternMatches(pattern: string, command: string): boolean {
  const p = pattern.trim().replace(/\s+/g, ' ');
  if (p.endsWith(':*')) {
    const prefix = p.slice(0, -2);
    return wildcardMatches(prefix, command) || wildcardMatches(`${prefix} *`, command);
  }
  return wildcardMatches(p, command);
}

function commandAllowed(patterns: string[], command: string): boolean {
  const whole = command.trim().replace(/\s+/g, ' ');
  if (patterns.some((p) => p.trim().replace(/\s+/g, ' ') === whole)) return true;
  const { segments, opaque } = splitShellCommand(command);
  if (opaque || segments.length === 0) return false;
  return segments.every((seg) => patterns.some((p) => commandPatternMatches(p, seg)));
}

function commandHit(pattern: string, command: string): boolean {
  const whole = command.trim().replace(/\s+/g, ' ');
  if (commandPatternMatches(pattern, whole)) return true;
  return splitShellCommand(command).segments.some((seg) => commandPatternMatches(pattern, seg));
}
