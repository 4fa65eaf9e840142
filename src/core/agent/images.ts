import { readFileSync } from 'node:fs';
import { extname, isAbsolute } from 'node:path';
import type { ContentPart } from '../providers/types';

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** An image reference from `send.images` (a data: URL or an absolute file path) as a chat content part. */
export function imagePart(ref: string, _workspace: string): ContentPart {
  if (ref.startsWith('data:image/')) return { type: 'image_url', image_url: { url: ref } };
  const mime = MIME[extname(ref).toLowerCase()];
  if (!isAbsolute(ref) || !mime)
    return { type: 'text', text: `[image '${ref}' skipped: expected a data:image URL or an absolute path to a png/jpeg/gif/webp file]` };
  try {
    const bytes = readFileSync(ref);
    if (bytes.length > MAX_IMAGE_BYTES) return { type: 'text', text: `[image '${ref}' skipped: larger than 20 MiB]` };
    return { type: 'image_url', image_url: { url: `data:${mime};base64,${bytes.toString('base64')}` } };
  } catch (err) {
    return { type: 'text', text: `[image '${ref}' could not be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}]` };
  }
}
