import * as vscode from 'vscode';

/** Both sides of an approval preview live in our in-memory file system under this scheme. */
export const REVIEW_SCHEME = 'catalyst-review';

export type ReviewSide = 'original' | 'proposal';

export interface ReviewUriParts {
  requestId: string;
  side: ReviewSide;
  /** The workspace-relative path of the real file, with forward slashes. */
  relPath: string;
}

/**
 * `catalyst-review:/<requestId>/<side>/<relPath>`: the real file's name ends the path, so the diff editor picks the
 * language from its extension and the tab shows a familiar name.
 */
export function reviewUri(parts: ReviewUriParts): vscode.Uri {
  const rel = parts.relPath.split('/').map(encodeURIComponent).join('/');
  return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${encodeURIComponent(parts.requestId)}/${parts.side}/${rel}` });
}

export function parseReviewUri(uri: vscode.Uri): ReviewUriParts | undefined {
  if (uri.scheme !== REVIEW_SCHEME) return undefined;
  const [, requestId, side, ...rest] = uri.path.split('/');
  if (!requestId || (side !== 'original' && side !== 'proposal') || rest.length === 0) return undefined;
  return { requestId: decodeURIComponent(requestId), side, relPath: rest.map(decodeURIComponent).join('/') };
}
