// Measurements shared by the chat-webview benches (bench/webviewSessionLoad.bench.ts measures the same way; these are
// importable so a bench need not copy them): typing latency in the composer, the webview's JS heap, and the resident
// memory of the processes behind code-server (the extension host, the core) read from Linux /proc, and the core's V8 heap.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Frame, Page } from 'playwright-core';
import { TEST_IDS } from '../../src/shared/webviewMessages';
import { byTestId } from '../../test/e2e/harness/chatView';
import { commandLineOf, descendantsOf } from '../../test/e2e/harness/processTree';

export const MB = 1024 * 1024;

/**
 * Per key typed into the composer: keydown (the event's own time stamp, i.e. including any wait for the main thread)
 * → the end of the first animation frame after the composer's value changed (a task posted from that frame's rAF runs
 * once the frame has been produced). Every figure is read from this frame's `performance` clock: an rAF callback's
 * argument is the frame's start, which can precede the keydown that the frame then handles, so it is not used.
 * The listeners are installed once per frame (calling it again only resets the samples); the composer is emptied after.
 */
export async function typingLatency(
  frame: Frame,
  keyboard: { type(text: string, opts?: { delay?: number }): Promise<void>; press(key: string): Promise<void> },
  text = 'a quick follow-up question about case 2000',
): Promise<number[]> {
  await frame.evaluate((sel) => {
    const g = globalThis as any;
    g.__catalystTyping = [];
    const composer = g.document.querySelector(sel);
    if (g.__catalystTypingComposer !== composer) {
      g.__catalystTypingComposer = composer;
      let pendingDown: number | undefined;
      g.document.addEventListener(
        'keydown',
        (e: any) => {
          const now = g.performance.now();
          // A time stamp from another clock (or none) would make the figure meaningless: fall back to the handler's time.
          pendingDown = e.timeStamp > 0 && e.timeStamp <= now && now - e.timeStamp < 10_000 ? e.timeStamp : now;
        },
        true,
      );
      composer?.addEventListener('input', () => {
        const down = pendingDown;
        pendingDown = undefined;
        if (down === undefined) return;
        g.requestAnimationFrame(() => {
          const channel = new g.MessageChannel();
          channel.port1.onmessage = () => g.__catalystTyping.push(g.performance.now() - down);
          channel.port2.postMessage(0);
        });
      });
    }
    composer?.focus();
  }, byTestId(TEST_IDS.composer));
  await frame.locator(byTestId(TEST_IDS.composer)).first().click();
  await keyboard.type(text, { delay: 60 });
  await new Promise((r) => setTimeout(r, 300));
  const samples = await frame.evaluate(() => (globalThis as any).__catalystTyping as number[]);
  await keyboard.press('ControlOrMeta+A');
  await keyboard.press('Backspace');
  return samples;
}

export interface HeapProbe {
  scope: string;
  /** Used JS heap after a forced GC, in bytes. */
  usedBytes(): Promise<number>;
}

/**
 * The webview's own V8 heap when its frame runs out of process (CDP on the frame); otherwise the renderer's heap that
 * the workbench and the webview share (CDP on the page), after a GC.
 */
export async function heapProbe(page: Page, frame: Frame): Promise<HeapProbe> {
  const context = page.context();
  let session: CDPSession;
  let scope: string;
  try {
    session = await context.newCDPSession(frame);
    scope = "the webview frame's own heap";
  } catch {
    session = await context.newCDPSession(page);
    scope = 'renderer heap shared by the workbench and the same-process webview';
  }
  return {
    scope,
    async usedBytes() {
      await session.send('HeapProfiler.collectGarbage').catch(() => undefined);
      const usage = await session.send('Runtime.getHeapUsage');
      return usage.usedSize;
    },
  };
}

/** Resident set size of a process (VmRSS in /proc/<pid>/status), in bytes; undefined when it is gone. */
export function rssBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** The VS Code extension host(s) under `root` (code-server's `bootstrap-fork --type=extensionHost`). */
export function extensionHostPidsUnder(root: number): number[] {
  return descendantsOf(root).filter((pid) => /--type=extensionHost(\s|$)/.test(commandLineOf(pid)));
}

/** Linux load average (1, 5, 15 min) as `uptime` prints it. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');
  } catch {
    return 'n/a';
  }
}

/**
 * The V8 heap of a Node process we do not control the code of (the core the extension spawns), read after a GC: a
 * preload (`NODE_OPTIONS=--require <file>`, passed through `catalystCode.core.env`) answers SIGUSR2 with a forced GC and
 * one `process.memoryUsage()` line appended to a file. `coreEnv()` is what to put into the core's environment; `read(pid)`
 * signals only a pid whose preload said it is listening (SIGUSR2 would end a Node process without a handler).
 */
export interface NodeHeapProbe {
  coreEnv(): Record<string, string>;
  read(
    pid: number | undefined,
    timeoutMs?: number,
  ): Promise<{ heapUsedMb: number; heapTotalMb: number; externalMb: number; rssMb: number } | undefined>;
}

export function nodeHeapProbe(dir: string): NodeHeapProbe {
  const preload = join(dir, 'bench-heap-preload.cjs');
  const out = join(dir, 'bench-heap.jsonl');
  writeFileSync(
    preload,
    [
      "'use strict';",
      'const out = process.env.CATALYST_BENCH_HEAP_OUT;',
      'if (out) {',
      "  const fs = require('node:fs');",
      "  require('node:v8').setFlagsFromString('--expose-gc');",
      "  const gc = require('node:vm').runInNewContext('gc');",
      "  const line = (o) => { try { fs.appendFileSync(out, JSON.stringify({ pid: process.pid, ...o }) + '\\n'); } catch {} };",
      '  let seq = 0;',
      "  process.on('SIGUSR2', () => { gc(); const m = process.memoryUsage(); line({ seq: ++seq, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, rss: m.rss }); });",
      '  line({ listening: true });',
      '}',
      '',
    ].join('\n'),
  );
  const lines = () => {
    try {
      return readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(
          (l) =>
            JSON.parse(l) as {
              pid: number;
              listening?: boolean;
              seq?: number;
              heapUsed?: number;
              heapTotal?: number;
              external?: number;
              rss?: number;
            },
        );
    } catch {
      return [];
    }
  };
  return {
    coreEnv: () => ({ NODE_OPTIONS: `--require ${preload}`, CATALYST_BENCH_HEAP_OUT: out }),
    async read(pid, timeoutMs = 10_000) {
      if (pid === undefined || !lines().some((l) => l.pid === pid && l.listening)) return undefined;
      const before = lines().filter((l) => l.pid === pid && l.seq !== undefined).length;
      process.kill(pid, 'SIGUSR2');
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const answers = lines().filter((l) => l.pid === pid && l.seq !== undefined);
        if (answers.length > before) {
          const last = answers[answers.length - 1];
          return {
            heapUsedMb: last.heapUsed! / MB,
            heapTotalMb: (last.heapTotal ?? 0) / MB,
            externalMb: (last.external ?? 0) / MB,
            rssMb: last.rss! / MB,
          };
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return undefined;
    },
  };
}
