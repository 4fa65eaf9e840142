import { highlightCode } from './highlight';

/** Time left in an idle period below which no new block is started. */
const MIN_IDLE_MS = 3;
/** Characters of code highlighted at once per frame (about 2 ms); the rest waits for idle time. */
const FRAME_BUDGET_CHARS = 8000;

/**
 * Highlights the code blocks a frame renders within a small budget, and the rest in idle time, one block at a time: a
 * reply with a hundred code blocks (or a long message scrolled into view) then never becomes one long task.
 * Highlighting does not change a block's size, so nothing moves when it lands.
 */
export class HighlightQueue {
  private readonly pending: HTMLElement[] = [];
  private scheduled = false;
  private budget = FRAME_BUDGET_CHARS;

  /** Called at the start of each render frame. */
  newFrame(): void {
    this.budget = FRAME_BUDGET_CHARS;
  }

  /** Highlights the `<code data-lang>` elements under `root` (code the renderer left plain), now or in idle time. */
  highlightWithin(root: Element): void {
    for (const code of root.querySelectorAll<HTMLElement>('code[data-lang]')) {
      const size = code.textContent?.length ?? 0;
      if (size <= this.budget && this.pending.length === 0) {
        this.budget -= size;
        highlight(code);
      } else {
        this.pending.push(code);
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    requestIdleCallback((deadline) => this.run(deadline), { timeout: 300 });
  }

  private run(deadline: IdleDeadline): void {
    this.scheduled = false;
    let first = true;
    while (this.pending.length > 0 && (first || deadline.timeRemaining() > MIN_IDLE_MS)) {
      const code = this.pending.shift()!;
      if (!code.isConnected || !code.dataset.lang) continue;
      highlight(code);
      first = false;
    }
    this.schedule();
  }
}

function highlight(code: HTMLElement): void {
  code.innerHTML = highlightCode(code.textContent ?? '', code.dataset.lang ?? '');
  delete code.dataset.lang;
}
