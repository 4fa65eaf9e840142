/**
 * A child's streamed text, one `subagent_delta` per provider read instead of one per SSE event: the deltas a read
 * delivers together (synchronously) go out as one event, in a microtask — the same event-loop turn, so no delta waits
 * for a timer or for the next read. Eight children at ~250 deltas/s each otherwise cost the core, the extension host
 * and the webview one event per delta (issue #14). The text and its order are unchanged: a client that appends every
 * `subagent_delta` gets the same text.
 */
export class ChildDeltas {
  private pending = '';

  constructor(private readonly emit: (text: string) => void) {}

  push(text: string): void {
    if (!text) return;
    if (!this.pending) queueMicrotask(() => this.flush());
    this.pending += text;
  }

  /** Emits what is held now: before any other event of the run, so nothing overtakes the text before it. */
  flush(): void {
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.emit(text);
  }
}
