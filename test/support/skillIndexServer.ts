// A stand-in for the skills.sh index on 127.0.0.1: `GET /api/search?q=&limit=` answers from a list of skills, `GET
// /api/download/<owner>/<repo>/<name>` from a map of snapshots the test may change between calls (an update).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IndexSkill {
  id?: string;
  skillId?: string;
  name: string;
  installs?: number;
  source: string;
}

/** A download's body as the index sends it; anything (even a malformed shape) so tests can send what an attacker would. */
export type IndexSnapshot = { files: Array<{ path: string; contents: string }>; hash: string } | Record<string, unknown>;

export interface SkillIndexRequest {
  path: string;
  query: Record<string, string>;
  userAgent?: string;
}

export interface SkillIndexServer {
  /** The index URL, for CATALYST_CODE_SKILLS_INDEX_URL. */
  url: string;
  requests: SkillIndexRequest[];
  /** What search answers (the server does no filtering: the core's sorting and validation are under test). */
  results: IndexSkill[];
  /** `<owner>/<repo>/<name>` → snapshot. */
  snapshots: Map<string, IndexSnapshot>;
  close(): Promise<void>;
}

export async function startSkillIndexServer(
  init: { results?: IndexSkill[]; snapshots?: Record<string, IndexSnapshot> } = {},
): Promise<SkillIndexServer> {
  const requests: SkillIndexRequest[] = [];
  const state = { results: init.results ?? [], snapshots: new Map(Object.entries(init.snapshots ?? {})) };
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), userAgent: req.headers['user-agent'] });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { error: 'method' });
    if (url.pathname === '/api/search') return send(200, { skills: state.results });
    const download = /^\/api\/download\/(.+)$/.exec(url.pathname);
    const snapshot = download ? state.snapshots.get(decodeURIComponent(download[1])) : undefined;
    if (snapshot) return send(200, snapshot);
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get results() {
      return state.results;
    },
    set results(next) {
      state.results = next;
    },
    snapshots: state.snapshots,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
