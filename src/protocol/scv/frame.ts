// Client frames of the SCV wire: one JSON object per line, at most MAX_CLIENT_FRAME_BYTES (newline excluded).
import { Buffer } from 'node:buffer';
import { encodeLine } from '../ndjson';
import type { ClientMessage } from './clientMessages';
import { MAX_CLIENT_FRAME_BYTES, MAX_PROMPT_BYTES } from './constants';

export type EncodedFrame = { line: string; bytes: number } | { error: string; bytes: number };

/** The message as one line, or why the server would refuse it (it answers `invalid_request` and drops nothing else). */
export function encodeClientFrame(message: ClientMessage, maxBytes = MAX_CLIENT_FRAME_BYTES): EncodedFrame {
  const line = encodeLine(message);
  const bytes = Buffer.byteLength(line, 'utf8') - 1;
  if (bytes > maxBytes)
    return {
      error: `the ${message.type} message is ${formatBytes(bytes)}; an SCV server accepts at most ${formatBytes(maxBytes)} per message`,
      bytes,
    };
  return { line, bytes };
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Why the server would refuse this prompt, or undefined when it fits. */
export function promptLimitError(prompt: string, maxBytes = MAX_PROMPT_BYTES): string | undefined {
  const bytes = utf8Bytes(prompt);
  return bytes > maxBytes ? `The prompt is ${formatBytes(bytes)}; an SCV server accepts at most ${formatBytes(maxBytes)}.` : undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
