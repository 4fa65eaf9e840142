/**
 * A least-recently-used cache of rendered HTML by source text, bounded by total characters. Scrolling a long
 * conversation back and forth re-mounts the same messages; their completed blocks then skip the Markdown parser.
 */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  get(source: string, render: (source: string) => string): string {
    const hit = this.entries.get(source);
    if (hit !== undefined) {
      this.entries.delete(source);
      this.entries.set(source, hit);
      return hit;
    }
    const html = render(source);
    this.entries.set(source, html);
    this.size += source.length + html.length;
    for (const [key, value] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(key);
      this.size -= key.length + value.length;
    }
    return html;
  }
}
