/** Where a link in model output may lead: a workspace-relative file (opened by the host), nothing else. */
export interface FileLink {
  path: string;
  line?: number;
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const LINE_SUFFIX = /(?:#L(\d+)(?:-L?\d+)?|:(\d+)(?::\d+)?)$/;

/** The file a link's href points at, when it is a relative path inside the workspace; undefined otherwise. */
export function fileLinkOf(href: string | null | undefined): FileLink | undefined {
  if (!href) return undefined;
  const raw = href.trim();
  if (raw === '' || raw.startsWith('#') || raw.startsWith('/') || raw.startsWith('\\') || HAS_SCHEME.test(raw)) return undefined;
  const match = LINE_SUFFIX.exec(raw);
  const pathPart = match ? raw.slice(0, match.index) : raw.replace(/[?#].*$/, '');
  const path = safeDecode(pathPart).replace(/^\.\//, '');
  // Checked again after decoding: %2F, %5C and %3A must not turn a relative href into an absolute path or a scheme.
  if (path === '' || path.split(/[\\/]/).includes('..') || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
  if (path.startsWith('/') || path.startsWith('\\') || HAS_SCHEME.test(path)) return undefined;
  const line = match ? Number(match[1] ?? match[2]) : undefined;
  return line !== undefined && line > 0 ? { path, line } : { path };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
