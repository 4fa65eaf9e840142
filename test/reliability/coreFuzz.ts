// Feeds a hostile corpus into the embedded core's stdin (node dist/core.js), each line followed by a probe command
// whose answer names it. The core handles commands in order, so the events between the answers to probe i-1 and
// probe i are line i's answer; every probe answered proves the core still responsive after its line, and a crash or a
// hang is pinned on the first line whose probe went unanswered. A few lines are kept in flight to keep the pipe busy.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_CAPABILITIES, NdjsonDecoder } from '../../src/protocol';
import { CORE_JS } from '../support/coreProcess';
import { inheritedCoreEnv } from '../support/coreTestEnv';
import { hostileCorpus, type Decoded, type HostileLine } from './hostileLines';

/** The core's stdin limit (src/core/main.ts MAX_COMMAND_BYTES). */
export const CORE_MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Lines written ahead of the last answered probe. */
const IN_FLIGHT = 32;
const PROBE_PREFIX = 'fuzz-probe-';

export interface CoreFuzzOptions {
  seed: number;
  count: number;
  giantSizes: number[];
  /** Sample VmRSS every this many lines. */
  sampleEvery?: number;
  /** How long the core may go without answering a probe before it counts as unresponsive (and is restarted). */
  probeTimeoutMs?: number;
  /** Node flags for the core process (e.g. a heap cap, so a leak ends in a crash instead of a slow climb). */
  nodeArgs?: string[];
}

export interface LineOutcome {
  index: number;
  category: string;
  decoded: Decoded;
  /** `error` events of the session scope (no run_id) between the line and its probe's answer, by code. */
  errorCodes: string[];
  /** Run-scoped `error` events (a turn the line started, failing later): counted, not attributed. */
  runErrors: number;
}

export interface CoreFuzzReport {
  linesTried: number;
  crashes: number;
  /** Probes not answered in time (the core was restarted after each, from the next line). */
  unresponsive: number;
  outcomes: LineOutcome[];
  /** Lines the core printed that were not NDJSON objects. */
  badOutputLines: string[];
  /** The core's stderr lines about uncaught exceptions, unhandled rejections and failed commands (first 50). */
  stderrProblems: string[];
  /** `command_failed` / `internal_error` messages (a handler threw instead of validating), first 50. */
  handlerFailures: string[];
  /** VmRSS samples in KiB, [lineIndex, rss]. */
  rssSamples: [number, number][];
  /** The largest VmHWM (peak RSS) of any core process of the run, in KiB. */
  maxRssKiB: number;
  exitCode: number | null | undefined;
  /** Files outside the workspace the run must not have touched: path → whether it is unchanged. */
  canaries: Record<string, boolean>;
  /** Entries that appeared in the outside directory during the run. */
  outsideNewEntries: string[];
  durationMs: number;
}

interface Sandbox {
  root: string;
  workspace: string;
  home: string;
  outside: string;
  canaries: Map<string, { content: string; mtimeMs: number }>;
}

export async function fuzzCore(opts: CoreFuzzOptions): Promise<CoreFuzzReport> {
  const started = Date.now();
  const box = makeSandbox();
  const corpus = hostileCorpus({
    seed: opts.seed,
    count: opts.count,
    vocabulary: 'commands',
    giantSizes: opts.giantSizes,
    outsidePaths: [
      join(box.outside, 'victim.jsonl'),
      join(box.outside, 'secret.txt'),
      '../outside/victim.jsonl',
      '../../outside/victim.jsonl',
      '../../../outside/secret.txt',
      'link/secret.txt',
      'link/victim.jsonl',
      box.outside,
    ],
  });
  const report: CoreFuzzReport = {
    linesTried: 0,
    crashes: 0,
    unresponsive: 0,
    outcomes: [],
    badOutputLines: [],
    stderrProblems: [],
    handlerFailures: [],
    rssSamples: [],
    maxRssKiB: 0,
    exitCode: undefined,
    canaries: {},
    outsideNewEntries: [],
    durationMs: 0,
  };
  const feed = { timeoutMs: opts.probeTimeoutMs ?? 30_000, sampleEvery: opts.sampleEvery ?? 100 };
  let core: FuzzedCore | undefined;
  try {
    for (let from = 0; from < corpus.length;) {
      core = await FuzzedCore.start(box, report, opts.nodeArgs ?? []);
      const stop = await core.feed(corpus, from, feed);
      report.maxRssKiB = Math.max(report.maxRssKiB, core.peakRssKiB);
      if (stop.kind === 'done') {
        report.exitCode = await core.close();
        break;
      }
      if (stop.kind === 'crashed') report.crashes++;
      else report.unresponsive++;
      await core.kill();
      from = stop.at + 1;
    }
  } finally {
    await core?.kill();
    checkOutside(box, report);
    rmSync(box.root, { recursive: true, force: true });
  }
  report.linesTried = report.outcomes.length + report.crashes + report.unresponsive;
  report.durationMs = Date.now() - started;
  return report;
}

type FeedStop = { kind: 'done' } | { kind: 'crashed' | 'timeout'; at: number };

class FuzzedCore {
  private readonly waiters = new Map<string, () => void>();
  /** Set while feeding: where probe answers, errors and the exit go. */
  private listener: { probe(index: number): void; error(code: string, runScoped: boolean): void; exit(): void } | undefined;
  private exited = false;
  private exitCode: number | null | undefined;
  private readonly exitPromise: Promise<void>;
  private lastPeak = 0;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly report: CoreFuzzReport,
  ) {
    const decoder = new NdjsonDecoder({
      maxLineBytes: 256 * 1024 * 1024,
      onValue: (value) => this.onEvent(value as { type?: unknown; [k: string]: unknown }),
      onError: (err) => {
        if (report.badOutputLines.length < 20) report.badOutputLines.push(`${err.kind}: ${err.preview}`);
      },
    });
    child.stdout.on('data', (chunk: Buffer) => decoder.push(chunk));
    let stderrTail = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (stderrTail + chunk).split('\n');
      stderrTail = lines.pop() ?? '';
      for (const l of lines) {
        if (/uncaught|unhandled|command \S+ failed/i.test(l) && report.stderrProblems.length < 50)
          report.stderrProblems.push(l.slice(0, 400));
      }
    });
    child.stdin.on('error', () => undefined);
    // 'close', not 'exit': by then stdout is drained, so a crash is not blamed on a line whose probe answer was still unread.
    this.exitPromise = new Promise((resolve) =>
      child.on('close', (code) => {
        this.exited = true;
        this.exitCode = code;
        this.listener?.exit();
        resolve();
      }),
    );
  }

  /** With --debug-log on, so every hostile command also goes through the log's redaction. */
  static async start(box: Sandbox, report: CoreFuzzReport, nodeArgs: string[]): Promise<FuzzedCore> {
    const child = spawn(
      process.execPath,
      [...nodeArgs, CORE_JS, '--workspace', box.workspace, '--approval', 'destructive', '--debug-log', join(box.home, 'debug.jsonl')],
      {
        cwd: box.workspace,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: box.home,
          XDG_CONFIG_HOME: join(box.home, '.config'),
          GIT_CONFIG_NOSYSTEM: '1',
          ...inheritedCoreEnv(),
        },
        stdio: 'pipe',
      },
    );
    const core = new FuzzedCore(child, report);
    const ready = core.waitFor('ready');
    const hello = core.waitFor('protocol_hello');
    core.child.stdin.write(
      JSON.stringify({
        type: 'init',
        protocol_version: 2,
        client: { name: 'fuzz', version: '0', capabilities: [...CLIENT_CAPABILITIES] },
      }) + '\n',
    );
    await withTimeout(Promise.all([ready, hello]), 15_000, 'the core did not answer init');
    return core;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Peak RSS of this process so far (VmHWM), remembered after it exits. */
  get peakRssKiB(): number {
    const hwm = this.exited ? undefined : readStatusKiB(this.pid, 'VmHWM');
    if (hwm !== undefined) this.lastPeak = Math.max(this.lastPeak, hwm);
    return this.lastPeak;
  }

  /** Writes corpus[from..] with a probe after each line and records each line's answer; stops at the end, a crash or a hang. */
  feed(corpus: HostileLine[], from: number, o: { timeoutMs: number; sampleEvery: number }): Promise<FeedStop> {
    return new Promise((resolve) => {
      let answered = from - 1;
      let written = from;
      let pumping = false;
      let errorCodes: string[] = [];
      let runErrors = 0;
      let timer: NodeJS.Timeout | undefined;
      const finish = (stop: FeedStop): void => {
        clearTimeout(timer);
        this.listener = undefined;
        resolve(stop);
      };
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: 'timeout', at: answered + 1 }), o.timeoutMs);
      };
      const pump = async (): Promise<void> => {
        if (pumping) return;
        pumping = true;
        while (this.listener && written < corpus.length && written - answered <= IN_FLIGHT) {
          const index = written++;
          await this.write(corpus[index].bytes());
          await this.write(Buffer.from(JSON.stringify({ type: 'forget_memory', id: `${PROBE_PREFIX}${index}` }) + '\n'));
        }
        pumping = false;
      };
      this.listener = {
        probe: (index) => {
          if (index !== answered + 1 && this.report.badOutputLines.length < 20)
            this.report.badOutputLines.push(`probe ${index} answered after ${answered}`);
          const line = corpus[index];
          this.report.outcomes.push({ index, category: line.category, decoded: line.decoded(CORE_MAX_LINE_BYTES), errorCodes, runErrors });
          errorCodes = [];
          runErrors = 0;
          answered = index;
          if (index % o.sampleEvery === 0) {
            const rss = readStatusKiB(this.pid, 'VmRSS');
            if (rss !== undefined) this.report.rssSamples.push([index, rss]);
          }
          if (answered === corpus.length - 1) return finish({ kind: 'done' });
          arm();
          void pump();
        },
        error: (code, runScoped) => {
          if (runScoped) runErrors++;
          else errorCodes.push(code);
        },
        exit: () => finish({ kind: 'crashed', at: answered + 1 }),
      };
      if (this.exited) return finish({ kind: 'crashed', at: from });
      arm();
      void pump();
    });
  }

  /** Closes stdin (the shutdown signal) and resolves with the exit code. */
  async close(): Promise<number | null | undefined> {
    void this.peakRssKiB;
    this.child.stdin.end();
    await withTimeout(this.exitPromise, 10_000, 'the core did not exit after stdin closed').catch(() => undefined);
    return this.exited ? this.exitCode : undefined;
  }

  async kill(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGKILL');
    await this.exitPromise;
  }

  private write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.exited || !this.child.stdin.writable) return resolve();
      if (this.child.stdin.write(bytes)) resolve();
      else this.child.stdin.once('drain', resolve);
    });
  }

  private waitFor(key: string): Promise<void> {
    return new Promise((resolve) => this.waiters.set(key, resolve));
  }

  private onEvent(e: { type?: unknown; [k: string]: unknown }): void {
    if (typeof e.type !== 'string') {
      if (this.report.badOutputLines.length < 20)
        this.report.badOutputLines.push(`event without a type: ${JSON.stringify(e).slice(0, 200)}`);
      return;
    }
    if (e.type === 'memory_saved' && typeof e.id === 'string' && e.id.startsWith(PROBE_PREFIX)) {
      this.listener?.probe(Number(e.id.slice(PROBE_PREFIX.length)));
      return;
    }
    if (e.type === 'error') {
      this.listener?.error(String(e.code), typeof e.run_id === 'string' && e.run_id !== '');
      if ((e.code === 'command_failed' || e.code === 'internal_error') && this.report.handlerFailures.length < 50) {
        this.report.handlerFailures.push(String(e.message).slice(0, 300));
      }
    }
    const waiter = this.waiters.get(e.type);
    if (waiter) {
      this.waiters.delete(e.type);
      waiter();
    }
  }
}

function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'fuzz-core-'));
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  for (const dir of [workspace, home, outside]) mkdirSync(dir);
  writeFileSync(join(workspace, 'README.md'), '# fuzzed\n');
  writeFileSync(join(workspace, '.env'), 'TOKEN=workspace-secret\n');
  symlinkSync(outside, join(workspace, 'link'));
  const canaries = new Map<string, { content: string; mtimeMs: number }>();
  for (const [name, content] of [
    ['victim.jsonl', '{"role":"user","content":"do not delete me"}\n'],
    ['secret.txt', 'outside secret\n'],
  ]) {
    const path = join(outside, name);
    writeFileSync(path, content);
    canaries.set(path, { content, mtimeMs: statSync(path).mtimeMs });
  }
  return { root, workspace, home, outside, canaries };
}

function checkOutside(box: Sandbox, report: CoreFuzzReport): void {
  for (const [path, before] of box.canaries) {
    let same = false;
    try {
      same = readFileSync(path, 'utf8') === before.content && statSync(path).mtimeMs === before.mtimeMs;
    } catch {
      same = false;
    }
    report.canaries[path] = same;
  }
  const known = new Set([...box.canaries.keys()].map((p) => p.slice(box.outside.length + 1)));
  report.outsideNewEntries = readdirSync(box.outside).filter((name) => !known.has(name));
}

export function readStatusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
