import { isExternalUrl } from '../../src/shared/webviewMessages';

/**
 * What a web tool card shows, read from the tool's own output (the same text upstream's core writes, so the cards work
 * with either core): fetch's `HTTP <status>  <content-type>` header line and text; web_search's
 * `Search: <query>  (<backend>, N hit(s))` and its numbered hits.
 */
export interface FetchResultView {
  status: string;
  contentType: string;
  /** `...[…]...` lines the core adds (body truncated, redirect not followed). */
  notes: string[];
  text: string;
}

export interface SearchHitView {
  title: string;
  /** Only an http(s) URL; undefined otherwise (shown as text, never as a link). */
  url?: string;
  rawUrl: string;
  snippet: string;
}

export interface SearchResultView {
  query: string;
  backend: string;
  hits: SearchHitView[];
}

const FETCH_HEADER = /^HTTP (\d{3}(?: [^\n]*?)?) {2}([^\n]*)$/;
const NOTE = /^\.\.\.\[(.*)\]\.\.\.$/;

export function parseFetchOutput(output: string | undefined): FetchResultView | undefined {
  if (!output) return undefined;
  const lines = output.split('\n');
  const header = FETCH_HEADER.exec(lines[0]);
  if (!header) return undefined;
  let i = 1;
  const notes: string[] = [];
  while (i < lines.length && NOTE.test(lines[i])) notes.push(NOTE.exec(lines[i++])![1]);
  return { status: header[1], contentType: header[2], notes, text: lines.slice(i).join('\n') };
}

const SEARCH_HEADER = /^Search: (.*) {2}\(([^,]+), (\d+) hit\(s\)(?: · [^)]*)?\)$/;
const HIT_TITLE = /^(\d+)\. (.*)$/;

export function parseSearchOutput(output: string | undefined): SearchResultView | undefined {
  if (!output) return undefined;
  const lines = output.split('\n');
  const header = SEARCH_HEADER.exec(lines[0]);
  if (!header) return undefined;
  const hits: SearchHitView[] = [];
  for (let i = 1; i < lines.length; i++) {
    const title = HIT_TITLE.exec(lines[i]);
    if (!title || !lines[i + 1]?.startsWith('   ')) continue;
    const rawUrl = lines[i + 1].trim();
    const snippet = lines[i + 2]?.startsWith('   ') ? lines[i + 2].trim() : '';
    hits.push({ title: title[2], rawUrl, url: isExternalUrl(rawUrl) ? rawUrl : undefined, snippet });
    i += snippet ? 2 : 1;
  }
  return { query: header[1], backend: header[2], hits };
}

/** The URL a fetch call asked for, when it is one a card may link to. */
export function fetchedUrl(args: string): string | undefined {
  try {
    const url = (JSON.parse(args) as { url?: unknown }).url;
    return typeof url === 'string' && isExternalUrl(url) ? url : undefined;
  } catch {
    return undefined;
  }
}
