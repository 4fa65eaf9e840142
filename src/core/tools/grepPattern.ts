/** Turning grep's pattern arguments into a JS RegExp. The schema promises Rust regex syntax; the common subset is the same. */
import { ToolInputError } from './outcome';

export interface PatternOptions {
  fixedString: boolean;
  word: boolean;
  caseInsensitive: boolean;
}

export function buildGrepRegex(pattern: string, options: PatternOptions): RegExp {
  let source = options.fixedString ? escapeRegExp(pattern) : translateRustSyntax(pattern);
  let flags = options.caseInsensitive ? 'i' : '';
  const inlineFlags = options.fixedString ? null : /^\(\?([ims]+)\)/.exec(source);
  if (inlineFlags) {
    source = source.slice(inlineFlags[0].length);
    for (const flag of inlineFlags[1]) if (!flags.includes(flag)) flags += flag;
  }
  if (options.word) source = `\\b(?:${source})\\b`;
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // Unicode mode rejects some escapes plain mode accepts (e.g. "\-" outside a class); try that before giving up.
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new ToolInputError(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}

/** Rust's named groups "(?P<name>" are "(?<name>" in JS. */
function translateRustSyntax(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
