import { loadHighlighter, type CodeHighlighter } from './highlighterLoader';

/** Time left in an idle period below which no new block is started. */
const MIN_IDLE_MS = 3;
/** Characters of code highlighted at once per frame (about 2 ms); the rest waits for idle time. */
const FRAME_BUDGET_CHARS = 8000;

/**
 * Highlights the code blocks a frame renders within a small budget, and the rest in idle time, one block at a time: a
 * reply with a hundred code blocks (or a long message scrolled into view) then never becomes one long task.
 * Highlighting does not change a block's size, so nothing moves when it lands. The highlighter itself is loaded on the
 * first block (it is most of a bundle's weight); blocks wait for it in the queue, plain.
 */
export class HighlightQueue {
  private readonly pending: HTMLElement[] = [];
  private scheduled = false;
  private budget = FRAME_BUDGET_CHARS;
  private highlight: CodeHighlighter | undefined;
  private loading = false;
  /** The highlighter did not load: code stays plain. */
  private unavailable = false;

  constructor(private readonly load: () => Promise<CodeHighlighter> = loadHighlighter) {}

  /** Called at the start of each render frame. */
  newFrame(): void {
    this.budget = FRAME_BUDGET_CHARS;
  }

  /** Highlights the `<code data-lang>` elements under `root` (code the renderer left plain), now or in idle time. */
  highlightWithin(root: Element): void {
    if (this.unavailable) return;
    for (const code of root.querySelectorAll<HTMLElement>('code[data-lang]')) {
      const size = code.textContent?.length ?? 0;
      if (this.highlight && size <= this.budget && this.pending.length === 0) {
        this.budget -= size;
        highlightElement(code, this.highlight);
      } else {
        this.pending.push(code);
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0) return;
    if (!this.highlight) return this.startLoading();
    this.scheduled = true;
    requestIdleCallback((deadline) => this.run(deadline), { timeout: 300 });
  }

  private startLoading(): void {
    if (this.loading) return;
    this.loading = true;
    this.load().then(
      (highlight) => {
        this.highlight = highlight;
        this.schedule();
      },
      // The code stays plain, still readable: one warning, not one per block.
      (err: unknown) => {
        this.unavailable = true;
        this.pending.length = 0;
        console.warn(`[catalyst] code is shown without highlighting: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }

  private run(deadline: IdleDeadline): void {
    this.scheduled = false;
    let first = true;
    while (this.pending.length > 0 && (first || deadline.timeRemaining() > MIN_IDLE_MS)) {
      const code = this.pending.shift()!;
      if (!code.isConnected || !code.dataset.lang) continue;
      highlightElement(code, this.highlight!);
      first = false;
    }
    this.schedule();
  }
}

function highlightElement(code: HTMLElement, highlight: CodeHighlighter): void {
  code.innerHTML = highlight(code.textContent ?? '', code.dataset.lang ?? '');
  delete code.dataset.lang;
}
