// Runs the client side of the pipe fuzz in its own process (test/reliability/clientFuzzHarness.ts), so its RSS is the
// client's alone: a CoreConnection reads the hostile corpus from a fake core (eventPrinter.ts) and feeds every event it
// delivers into the session reducer.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');

export interface ClientCorpusSpec {
  seed: number;
  count: number;
  giantSizes: number[];
  /** The CoreConnection's line limit, for the printer's expectations. */
  maxLineBytes: number;
}

export interface ClientFuzzReport {
  linesTried: number;
  /** Uncaught exceptions in the client process (anything the connection let escape), plus a harness that died. */
  crashes: number;
  /** Lines the client answered other than expected: [line, category, expected, events, logs]. */
  mismatches: [number, string, string, number, number][];
  mismatchCount: number;
  /** Events delivered to listeners and lines logged, in all. */
  events: number;
  logs: number;
  /** The unterminated last line came through at EOF. */
  tailDelivered: boolean;
  /** Exceptions thrown by the session reducer on the delivered events, and a few of their messages. */
  reducerThrows: number;
  reducerErrors: string[];
  /** Object.prototype was not polluted by any event. */
  prototypeClean: boolean;
  /** RSS samples in KiB: [line, rss]. */
  rssSamples: [number, number][];
  maxRssKiB: number;
  durationMs: number;
  stderr?: string;
}

/** Spawns the harness and resolves with its report (a harness that dies is reported as a crash, not thrown). */
export function fuzzClient(spec: Omit<ClientCorpusSpec, 'maxLineBytes'>, opts: { nodeArgs?: string[] } = {}): Promise<ClientFuzzReport> {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [...(opts.nodeArgs ?? []), '--import', 'tsx', resolve(__dirname, 'clientFuzzHarness.ts'), JSON.stringify(spec)],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-4000)));
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        const report = JSON.parse(last) as ClientFuzzReport;
        if (code !== 0) report.crashes++;
        done({ ...report, ...(err ? { stderr: err } : {}) });
      } catch {
        done({
          linesTried: 0,
          crashes: 1,
          mismatches: [],
          mismatchCount: 0,
          events: 0,
          logs: 0,
          tailDelivered: false,
          reducerThrows: 0,
          reducerErrors: [],
          prototypeClean: false,
          rssSamples: [],
          maxRssKiB: 0,
          durationMs: Date.now() - started,
          stderr: `harness exited (${code ?? signal}) without a report; stderr: ${err}`,
        });
      }
    });
  });
}
