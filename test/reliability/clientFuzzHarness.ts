// The client process of the pipe fuzz: a CoreConnection on a fake core that prints the hostile corpus. Prints one JSON
// line, a ClientFuzzReport, when the fake core has exited. Usage: node --import tsx clientFuzzHarness.ts '<spec JSON>'
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CoreConnection, MAX_EVENT_LINE_BYTES } from '../../src/client/channel/coreConnection';
import type { WireEvent } from '../../src/client/state/eventFields';
import { sessionReducer } from '../../src/client/state/sessionReducer';
import { initialSessionState, type SessionState } from '../../src/shared/sessionState';
import { REPO_ROOT, type ClientCorpusSpec, type ClientFuzzReport } from './clientFuzz';

/** The reducer's state starts over this often, so the transcript the fuzz builds up is not mistaken for a leak. */
const REDUCER_RESET_EVERY = 1000;
const SAMPLE_EVERY = 100;

const started = Date.now();
const spec: ClientCorpusSpec = {
  ...(JSON.parse(process.argv[2]) as Omit<ClientCorpusSpec, 'maxLineBytes'>),
  maxLineBytes: MAX_EVENT_LINE_BYTES,
};
const report: ClientFuzzReport = {
  linesTried: 0,
  crashes: 0,
  mismatches: [],
  mismatchCount: 0,
  events: 0,
  logs: 0,
  tailDelivered: false,
  reducerThrows: 0,
  reducerErrors: [],
  prototypeClean: true,
  rssSamples: [],
  maxRssKiB: 0,
  durationMs: 0,
};
process.on('uncaughtException', (err) => {
  report.crashes++;
  process.stderr.write(`uncaught: ${err.stack ?? err}\n`);
});

let eventsSinceProbe = 0;
let logsSinceProbe = 0;
let state: SessionState = initialSessionState();
let reduced = 0;

const connection = CoreConnection.spawn(
  {
    command: process.execPath,
    args: ['--import', 'tsx', resolve(__dirname, 'eventPrinter.ts'), JSON.stringify(spec)],
    env: { PATH: process.env.PATH ?? '' },
    kind: 'embedded',
  },
  REPO_ROOT,
  '0.0.0-fuzz',
);
connection.onLog(() => {
  logsSinceProbe++;
  report.logs++;
});
connection.onEvent((e) => {
  if (e.type === 'fuzz_probe') return onProbe(e);
  if (e.type === 'fuzz_tail') {
    report.tailDelivered = true;
    return;
  }
  eventsSinceProbe++;
  report.events++;
  reduce(e);
});
connection.onExit(() => {
  report.maxRssKiB = peakRssKiB();
  report.prototypeClean = !('polluted' in Object.prototype) && ({} as Record<string, unknown>).polluted === undefined;
  report.durationMs = Date.now() - started;
  process.stdout.write(JSON.stringify(report) + '\n');
  process.exit(0);
});

function onProbe(e: WireEvent): void {
  const { n, expect, category } = e as unknown as { n: number; expect: string; category: string };
  const wanted = expect === 'typed' ? [1, 0] : expect === 'blank' ? [0, 0] : [0, 1];
  if (eventsSinceProbe !== wanted[0] || logsSinceProbe !== wanted[1]) {
    report.mismatchCount++;
    if (report.mismatches.length < 20) report.mismatches.push([n, category, expect, eventsSinceProbe, logsSinceProbe]);
  }
  eventsSinceProbe = 0;
  logsSinceProbe = 0;
  report.linesTried++;
  if (n % SAMPLE_EVERY === 0) report.rssSamples.push([n, Math.round(process.memoryUsage().rss / 1024)]);
}

function reduce(e: WireEvent): void {
  try {
    state = sessionReducer(state, e);
  } catch (err) {
    report.reducerThrows++;
    const message = `${e.type}: ${(err as Error).message}`.slice(0, 300);
    if (report.reducerErrors.length < 10 && !report.reducerErrors.includes(message)) report.reducerErrors.push(message);
  }
  if (++reduced % REDUCER_RESET_EVERY === 0) state = initialSessionState();
}

function peakRssKiB(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) : Math.round(process.memoryUsage().rss / 1024);
}
