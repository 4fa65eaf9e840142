/**
 * The size caps: a file's text is cut at `maxFileBytes`, and the files together stop at `maxTotalBytes` (spent in prompt
 * order, so the later, lower-precedence files go first). Nothing is cut silently: a cut file ends with a marker, a file
 * left out is still named in the prompt with a marker.
 */
import type { ProjectRulesSettings } from '../config/rulesSettings';

export interface CappedText {
  text: string;
  truncated: boolean;
}

export function truncationMarker(path: string, size: number, kept: number, settingKey: string, cap: number): string {
  return `[… truncated by Catalyst Code: ${path} is ${size} bytes, only the first ${kept} are shown (${settingKey} = ${cap}); read the rest with read_file if it matters]`;
}

export function omissionMarker(path: string, cap: number): string {
  return `[left out by Catalyst Code: the project rules reached their total cap (project_rules.max_total_bytes = ${cap}); read ${path} with read_file if it matters]`;
}

/** Spends the caps over the files in order; `size` is each file's size on disk (its bytes may be a prefix of it). */
export class RulesBudget {
  private used = 0;

  constructor(private readonly settings: Pick<ProjectRulesSettings, 'maxFileBytes' | 'maxTotalBytes'>) {}

  take(path: string, bytes: Buffer, size: number): CappedText {
    const remaining = this.settings.maxTotalBytes - this.used;
    if (remaining <= 0) return { text: omissionMarker(path, this.settings.maxTotalBytes), truncated: true };
    const fileCap = Math.min(this.settings.maxFileBytes, remaining);
    if (size <= fileCap && bytes.length === size) {
      this.used += size;
      return { text: bytes.toString('utf8'), truncated: false };
    }
    const kept = utf8Prefix(bytes, fileCap);
    this.used += kept.length;
    const [key, cap] =
      fileCap === this.settings.maxFileBytes
        ? ['project_rules.max_file_bytes', this.settings.maxFileBytes]
        : ['project_rules.max_total_bytes', this.settings.maxTotalBytes];
    return { text: `${kept.toString('utf8')}\n${truncationMarker(path, size, kept.length, key, cap)}`, truncated: true };
  }
}

/** At most `max` bytes of `bytes`, never ending inside a UTF-8 sequence. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  // Back off over continuation bytes, then drop the lead byte of the sequence they belong to.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}
