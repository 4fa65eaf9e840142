// Splits a shell command line into the simple commands it runs, so that a permission
// rule written for one command (`npm test*`) cannot approve `npm test; rm -rf ~`.

export interface ShellSegments {
  /** Simple commands separated by `;`, `&&`, `||`, `|`, `|&`, `&` or newlines, trimmed, whitespace collapsed. */
  segments: string[];
  /** Command or process substitution (`$(…)`, backticks, `<(…)`, `>(…)`) outside single quotes: the segments don't tell the whole story. */
  opaque: boolean;
}

export function splitShellCommand(command: string): ShellSegments {
  const segments: string[] = [];
  let current = '';
  let quote: "'" | '"' | undefined;
  let opaque = false;
  const flush = () => {
    const s = current.trim().replace(/\s+/g, ' ');
    if (s) segments.push(s);
    current = '';
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      current += c;
      continue;
    }
    if (c === '\\' && next !== undefined) {
      current += c + next;
      i++;
      continue;
    }
    if (c === '`' || (c === '$' && next === '(') || ((c === '<' || c === '>') && next === '(' && !quote)) opaque = true;
    if (quote === '"') {
      if (c === '"') quote = undefined;
      current += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    const sep = separatorLength(command, i);
    if (sep > 0) {
      flush();
      i += sep - 1;
      continue;
    }
    current += c;
  }
  flush();
  return { segments, opaque };
}

/** Length of the command separator starting at `i`, or 0. Redirections like `2>&1` and `&>` are not separators. */
function separatorLength(s: string, i: number): number {
  const c = s[i];
  const next = s[i + 1];
  if (c === ';' || c === '\n' || c === '\r') return 1;
  if (c === '|') return next === '|' || next === '&' ? 2 : 1;
  if (c === '&') {
    if (next === '&') return 2;
    if (next === '>' || s[i - 1] === '>' || s[i - 1] === '<') return 0;
    return 1;
  }
  return 0;
}
