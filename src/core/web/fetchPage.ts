/**
 * fetch's checks and output, in upstream's order and words (research §9.1): an absolute http(s) URL, --no-network, the
 * host policy, then one bounded GET whose redirects are each re-checked; HTML becomes readable text unless `raw`; the
 * result starts with `HTTP <status>  <content-type>` and is capped at 24,576 bytes.
 */
import { hostRefusal, parseHttpUrl } from './hostPolicy';
import { isHtml, htmlToText } from './htmlText';
import { webRequest, WebRequestError, type WebResponse } from './httpClient';
import { capBytes } from './outputCap';
import type { WebAccess } from './webAccess';

export interface FetchResult {
  ok: boolean;
  output: string;
}

export async function fetchPage(rawUrl: string, raw: boolean, web: WebAccess, signal: AbortSignal): Promise<FetchResult> {
  const target = parseHttpUrl(rawUrl);
  if (!target) return { ok: false, output: 'fetch: url must be an absolute http(s) URL' };
  const refusal = hostRefusal('fetch', target.host, web.policy);
  if (refusal) return { ok: false, output: refusal };
  let response: WebResponse;
  try {
    response = await webRequest({
      method: 'GET',
      target,
      label: 'fetch',
      policy: web.policy,
      timeoutMs: web.timeoutMs,
      maxBytes: web.maxBytes,
      signal,
      followRedirects: true,
    });
  } catch (err) {
    if (err instanceof WebRequestError) return { ok: false, output: `fetch: ${err.message}` };
    throw err;
  }
  return { ok: response.status >= 200 && response.status < 300, output: capBytes(render(response, raw, web.maxBytes)) };
}

function render(response: WebResponse, raw: boolean, maxBytes: number): string {
  const body = response.body.toString('utf8');
  const text = !raw && isHtml(response.contentType) ? htmlToText(body, response.url) : body;
  const lines = [`HTTP ${response.statusText}  ${response.contentType}`];
  if (response.redirectNotFollowed) lines.push(`...[${response.redirectNotFollowed}]...`);
  if (response.truncated) lines.push(`...[body truncated at ${maxBytes} bytes]...`);
  return `${lines.join('\n')}\n${text}`;
}
