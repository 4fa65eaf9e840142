// Reads the server's stdout as NDJSON with a line limit that the server may change once (session.started announces its
// max_server_frame_bytes). NdjsonDecoder's limit is fixed, so a new decoder takes over at the next line boundary.
import { Buffer } from 'node:buffer';
import { NdjsonDecoder, type NdjsonDecodeError } from '../../../protocol';

const NEWLINE = 0x0a;

export interface ServerFrameReaderOptions {
  maxLineBytes: number;
  onValue(value: unknown): void;
  onError(err: NdjsonDecodeError): void;
}

export class ServerFrameReader {
  private decoder: NdjsonDecoder;
  private limit: number;
  private nextLimit: number | undefined;

  constructor(private readonly o: ServerFrameReaderOptions) {
    this.limit = o.maxLineBytes;
    this.decoder = this.newDecoder(o.maxLineBytes);
  }

  get maxLineBytes(): number {
    return this.nextLimit ?? this.limit;
  }

  /** Takes effect from the line after the one being read. */
  setMaxLineBytes(bytes: number): void {
    this.nextLimit = bytes === this.limit ? undefined : bytes;
  }

  push(chunk: Buffer): void {
    if (this.nextLimit === undefined) return this.decoder.push(chunk);
    const newline = chunk.indexOf(NEWLINE);
    if (newline < 0) return this.decoder.push(chunk);
    // The old decoder finishes the line it holds (or skips); after its newline it holds nothing.
    try {
      this.decoder.push(chunk.subarray(0, newline + 1));
    } finally {
      this.limit = this.nextLimit;
      this.nextLimit = undefined;
      this.decoder = this.newDecoder(this.limit);
    }
    if (newline + 1 < chunk.length) this.decoder.push(chunk.subarray(newline + 1));
  }

  end(): void {
    this.decoder.end();
  }

  private newDecoder(maxLineBytes: number): NdjsonDecoder {
    return new NdjsonDecoder({ maxLineBytes, onValue: (value) => this.o.onValue(value), onError: (err) => this.o.onError(err) });
  }
}
