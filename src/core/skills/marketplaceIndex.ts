/**
 * The marketplace index over HTTP: `GET <index>/api/search?q=…&limit=50` and `GET <index>/api/download/<owner>/<repo>/<name>`.
 * The index is skills.sh unless CATALYST_CODE_SKILLS_INDEX_URL names another (a mirror, or the tests' local server).
 */
import { MAX_SNAPSHOT_BYTES, parseSnapshot, searchResults, type MarketplaceSkill, type Snapshot } from './marketplaceSnapshot';

export const DEFAULT_SKILLS_INDEX_URL = 'https://skills.sh';
export const SKILLS_INDEX_URL_ENV = 'CATALYST_CODE_SKILLS_INDEX_URL';
const USER_AGENT = 'catcode-skills';
const REQUEST_TIMEOUT_MS = 30_000;
/** The JSON around 25 MiB of file contents (escapes can double it), and no more. */
const MAX_RESPONSE_BYTES = 2 * MAX_SNAPSHOT_BYTES + 1024 * 1024;

export function skillsIndexUrl(env: NodeJS.ProcessEnv): string {
  const configured = env[SKILLS_INDEX_URL_ENV]?.trim();
  return (configured || DEFAULT_SKILLS_INDEX_URL).replace(/\/+$/, '');
}

export async function searchIndex(indexUrl: string, query: string): Promise<MarketplaceSkill[]> {
  const url = new URL(`${indexUrl}/api/search`);
  url.searchParams.set('q', query);
  url.searchParams.set('limit', '50');
  const body = await getJson(url, 'skills.sh search failed', 'skills.sh search returned', 'invalid skills.sh search response');
  return searchResults(body);
}

/** The caller has validated `source` (owner/repo) and `name`, so both are plain path segments. */
export async function downloadSkill(indexUrl: string, source: string, name: string): Promise<Snapshot> {
  const url = new URL(`${indexUrl}/api/download/${source}/${name}`);
  const body = await getJson(url, 'skill download failed', 'skills.sh download returned', 'invalid skills.sh download response');
  return parseSnapshot(body);
}

async function getJson(url: URL, failed: string, status: string, invalid: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { 'User-Agent': USER_AGENT }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (err) {
    throw new Error(`${failed}: ${(err as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${status} HTTP ${response.status}`);
  }
  const text = await boundedText(response, failed);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${invalid}: ${(err as Error).message}`);
  }
}

async function boundedText(response: Response, failed: string): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`${failed}: the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
