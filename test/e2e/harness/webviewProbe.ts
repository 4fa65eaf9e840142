import type { Frame, Locator } from 'playwright-core';

/**
 * Instruments a webview frame for the benchmarks: rAF timestamps (frame times), long tasks (PerformanceObserver), and
 * the epoch time at which a marker text first appears inside the last element matching a selector — checked once per
 * animation frame, i.e. when the user could see it.
 */
export interface LongTask {
  start: number;
  duration: number;
  source: string;
}

export interface ProbeReport {
  /** Epoch ms of each animation frame while the probe ran. */
  frames: number[];
  /** Long tasks: epoch start, duration (ms) and attribution ('self' = this frame; '…-ancestor' = the workbench around it). */
  longTasks: LongTask[];
  /** Epoch ms of the first frame in which the marker was in the DOM (undefined if it never was). */
  markerSeenAt?: number;
  /** Whether this Chromium reports long tasks in the frame at all. */
  longTaskSupported: boolean;
}

/** Records frames and long tasks; with `selector` and `marker`, also the first frame in which the last match contains it. */
export async function startProbe(frame: Frame, opts: { selector?: string; marker?: string } = {}): Promise<void> {
  await frame.evaluate(({ selector, marker }) => {
    const g = globalThis as any;
    const origin = g.performance.timeOrigin;
    const probe = {
      frames: [] as number[],
      longTasks: [] as { start: number; duration: number; source: string }[],
      markerSeenAt: undefined as number | undefined,
      stop: false,
      longTaskSupported: false,
    };
    g.__catalystProbe = probe;
    try {
      const observer = new g.PerformanceObserver((list: any) => {
        for (const e of list.getEntries()) probe.longTasks.push({ start: origin + e.startTime, duration: e.duration, source: e.name });
      });
      observer.observe({ type: 'longtask' });
      probe.longTaskSupported = (g.PerformanceObserver.supportedEntryTypes ?? []).includes('longtask');
    } catch {
      probe.longTaskSupported = false;
    }
    const tick = (t: number) => {
      probe.frames.push(origin + t);
      if (selector && marker && probe.markerSeenAt === undefined) {
        const all = g.document.querySelectorAll(selector);
        const last = all[all.length - 1];
        if (last && (last.textContent ?? '').includes(marker)) probe.markerSeenAt = origin + t;
      }
      if (!probe.stop) g.requestAnimationFrame(tick);
    };
    g.requestAnimationFrame(tick);
  }, opts);
}

export async function readProbe(frame: Frame, stop = true): Promise<ProbeReport> {
  return frame.evaluate((stopNow) => {
    const probe = (globalThis as any).__catalystProbe;
    if (stopNow) probe.stop = true;
    return {
      frames: probe.frames,
      longTasks: probe.longTasks,
      markerSeenAt: probe.markerSeenAt,
      longTaskSupported: probe.longTaskSupported,
    };
  }, stop);
}

/** Frame-to-frame intervals (ms) that overlap [from, to]. */
export function frameIntervals(frames: number[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < frames.length; i++) if (frames[i] >= from && frames[i - 1] <= to) out.push(frames[i] - frames[i - 1]);
  return out;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Scrolls `target` into view as a user would (its bottom to the bottom of its scroller) and waits until the page has
 * reacted: the scroll event, then two animation frames (the one that handles it and the one after). Resolves at once
 * after two frames when nothing had to scroll.
 */
export async function scrollIntoViewSettled(target: Locator): Promise<void> {
  await target.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        const g = globalThis as any;
        const settle = () => g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
        const scrollers: any[] = [];
        for (let node = el.parentElement; node; node = node.parentElement) scrollers.push(node);
        const before = scrollers.map((s) => s.scrollTop);
        g.document.addEventListener('scroll', settle, { capture: true, once: true });
        el.scrollIntoView({ block: 'end' });
        if (scrollers.every((s, i) => s.scrollTop === before[i])) {
          g.document.removeEventListener('scroll', settle, { capture: true });
          settle();
        }
      }),
  );
}

/** `target`'s bounding box (`x,y wxh`) in each of `frames` consecutive animation frames of its document. */
export async function boxesOverFrames(target: Locator, frames: number): Promise<string[]> {
  return target.evaluate(
    (el, count) =>
      new Promise<string[]>((resolve) => {
        const g = globalThis as any;
        const boxes: string[] = [];
        const sample = () => {
          const r = el.getBoundingClientRect();
          boxes.push(`${r.x},${r.y} ${r.width}x${r.height}`);
          if (boxes.length < count) g.requestAnimationFrame(sample);
          else resolve(boxes);
        };
        g.requestAnimationFrame(sample);
      }),
    frames,
  );
}
