/** Reading workspace files as text, telling text from binary the way grep and git do (NUL bytes, invalid UTF-8). */
import fs from 'node:fs/promises';

export type FileText = { kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'missing' };

const SNIFF_BYTES = 8192;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function readFileText(abs: string): Promise<FileText> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  const text = decodeText(bytes);
  return text === undefined ? { kind: 'binary' } : { kind: 'text', text };
}

/** The UTF-8 text of `bytes`, or undefined when they look binary (a NUL in the first 8 KiB, or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (looksBinary(bytes)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}
