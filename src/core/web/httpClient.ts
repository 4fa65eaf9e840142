/**
 * One bounded HTTP exchange for the web tools: node's http/https (a DNS lookup of our own sees each address before the
 * connection is made), a total and a connect timeout, the body streamed up to a byte cap (after decompression), and
 * redirects followed by hand — each hop re-checked against the egress policy, at most MAX_REDIRECTS of them.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, STATUS_CODES, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { hostRefusal, parseHttpUrl, type EgressPolicy, type HttpTarget } from './hostPolicy';
import { isPrivateAddress } from './privateHosts';

export const USER_AGENT = 'catalyst-code-fetch/0.1';
/** Upstream follows any number of redirects (research §9.1); we stop a loop or a long chain here. */
export const MAX_REDIRECTS = 5;
export const CONNECT_TIMEOUT_MS = 10_000;

export interface WebRequest {
  method: 'GET' | 'POST';
  target: HttpTarget;
  headers?: Record<string, string>;
  body?: string;
  /** Names the tool in refusals ("fetch", "web_search"). */
  label: string;
  policy: EgressPolicy;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
  followRedirects: boolean;
  /** Test seam: the connect timeout. */
  connectTimeoutMs?: number;
}

export interface WebResponse {
  status: number;
  /** "200 OK" */
  statusText: string;
  /** Lowercase, as the server sent it ("" when absent). */
  contentType: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The body went past maxBytes: only its first maxBytes bytes were read. */
  truncated: boolean;
  /** The URL that answered (after the redirects that were followed). */
  url: string;
  /** A redirect that was not followed, and why (its 3xx is the response). */
  redirectNotFollowed?: string;
}

/** A transport failure; its message is upstream's "request failed: …" or "failed to read body: …". */
export class WebRequestError extends Error {}

export async function webRequest(req: WebRequest): Promise<WebResponse> {
  let target = req.target;
  for (let hop = 0; ; hop++) {
    const response = await exchange(req, target);
    const next = response.status >= 300 && response.status < 400 ? response.headers.location : undefined;
    if (!req.followRedirects || typeof next !== 'string') return response;
    if (hop === MAX_REDIRECTS)
      throw new WebRequestError(`redirect limit exceeded (${MAX_REDIRECTS} redirects followed, last to ${target.url.href})`);
    const resolved = parseHttpUrl(safeJoin(next, target.url));
    const refusal = resolved ? hostRefusal(req.label, resolved.host, req.policy) : `${req.label}: the redirect leads to a non-http(s) URL`;
    if (!resolved || refusal) return { ...response, redirectNotFollowed: `redirect to ${next} not followed: ${refusal}` };
    target = resolved;
  }
}

function safeJoin(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function exchange(req: WebRequest, target: HttpTarget): Promise<WebResponse> {
  return new Promise((resolve, reject) => {
    const fail = (prefix: string) => (err: Error) => reject(new WebRequestError(`${prefix}: ${err.message}`));
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target.url, {
      method: req.method,
      headers: {
        'user-agent': USER_AGENT,
        'accept-encoding': 'gzip, deflate, br',
        ...(req.body !== undefined ? { 'content-length': String(Buffer.byteLength(req.body)) } : {}),
        ...req.headers,
      },
      lookup: req.policy.allowlist.length === 0 ? publicOnlyLookup : undefined,
    });
    const stop = boundExchange(request, req);
    request.on('error', (err) => {
      stop();
      fail('request failed')(err);
    });
    request.on('response', (res) => {
      readBody(res, req.maxBytes).then(
        ({ body, truncated }) => {
          stop();
          const status = res.statusCode ?? 0;
          resolve({
            status,
            statusText: `${status} ${STATUS_CODES[status] ?? ''}`.trim(),
            contentType: String(res.headers['content-type'] ?? '').toLowerCase(),
            headers: res.headers,
            body,
            truncated,
            url: target.url.href,
          });
        },
        (err: Error) => {
          stop();
          fail('failed to read body')(err);
        },
      );
    });
    request.end(req.body);
  });
}

/** The total timeout, the connect timeout and the run's cancellation, for one request; returns what clears them. */
function boundExchange(request: ReturnType<typeof httpRequest>, req: WebRequest): () => void {
  const total = setTimeout(() => request.destroy(new Error(`timed out after ${Math.round(req.timeoutMs / 1000)}s`)), req.timeoutMs);
  const onAbort = () => request.destroy(new Error('cancelled'));
  req.signal.addEventListener('abort', onAbort, { once: true });
  if (req.signal.aborted) onAbort();
  request.once('socket', (socket) => {
    if (!socket.connecting) return;
    const ms = req.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const connect = setTimeout(() => request.destroy(new Error(`connect timed out after ${Math.round(ms / 1000)}s`)), ms);
    socket.once('connect', () => clearTimeout(connect));
    socket.once('close', () => clearTimeout(connect));
  });
  return () => {
    clearTimeout(total);
    req.signal.removeEventListener('abort', onAbort);
  };
}

/** Up to maxBytes of the decoded body; the response is destroyed as soon as it goes past them. */
function readBody(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(res);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks, Math.min(size, maxBytes)), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        finish(true);
        res.destroy();
        if (stream !== res) stream.destroy();
      }
    });
    stream.on('end', () => finish(false));
    stream.on('error', (err) => {
      if (!done) reject(err);
      done = true;
    });
    res.on('error', (err) => {
      if (!done) reject(err);
      done = true;
    });
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  return decoder ? res.pipe(decoder) : res;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * With an empty allowlist, a public-looking name that resolves to a private address is refused at connect time (upstream
 * at 15165db checks only the name; its later versions resolve and check too).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0) return callback(new Error(`DNS resolution returned no addresses for '${hostname}'`), []);
    if (addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(new Error(`host '${hostname}' resolves to a private/loopback/link-local address`), []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
