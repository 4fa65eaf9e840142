/** Collecting a process's output up to a cap, keeping the head and the tail with a marker for what was dropped. */

export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private droppedBytes = 0;

  constructor(private readonly capBytes: number) {}

  append(chunk: Buffer): void {
    const headRoom = Math.floor(this.capBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const toHead = chunk.subarray(0, headRoom);
      this.head.push(toHead);
      this.headBytes += toHead.length;
      chunk = chunk.subarray(toHead.length);
    }
    if (chunk.length > 0) this.appendToTail(chunk);
  }

  /** The collected text; "… [N bytes of output omitted] …" between head and tail when the cap was exceeded. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (this.droppedBytes === 0) return head + tail;
    return `${head}\n… [${this.droppedBytes} bytes of output omitted] …\n${tail}`;
  }

  private appendToTail(chunk: Buffer): void {
    const tailCap = this.capBytes - Math.floor(this.capBytes / 2);
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > tailCap) {
      const excess = this.tailBytes - tailCap;
      const first = this.tail[0];
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.droppedBytes += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.droppedBytes += excess;
      }
    }
  }
}
