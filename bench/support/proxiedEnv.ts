// The launch the timing benches share (webviewStreaming, diffOpen, subagentsStreaming): one code-server launch whose
// scripted model server sits behind a pass-through timing proxy (when each marker's chunk left the server), the core
// configured with that proxy as its only provider; the run, then both closed whatever happened. Also the long-task
// attribution they print.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startE2eEnv, type E2eEnv, type E2eOptions } from '../../test/e2e/harness/e2eEnv';
import { startTimingProxy, type TimingProxy } from '../../test/e2e/harness/timingProxy';
import type { LongTask } from '../../test/e2e/harness/webviewProbe';

export interface ProxiedEnvOptions extends Omit<E2eOptions, 'beforeLaunch'> {
  /** The text(s) whose chunk the proxy times (one per stream when several stream at once). */
  markers: string | readonly string[];
  /** More of the core's config.json next to the provider (e.g. `subagents`). */
  config?: Record<string, unknown>;
}

/** Launches, runs `run(env, proxy)`, and closes VS Code and the proxy. */
export async function withProxiedEnv(options: ProxiedEnvOptions, run: (env: E2eEnv, proxy: TimingProxy) => Promise<void>): Promise<void> {
  const { markers, config, ...launch } = options;
  let proxy: TimingProxy | undefined;
  const env = await startE2eEnv({
    ...launch,
    beforeLaunch: async ({ configDir, model }) => {
      proxy = await startTimingProxy(model.url, markers);
      writeProviderConfig(configDir, proxy.url, config);
    },
  });
  try {
    await run(env, proxy!);
  } finally {
    await env.close();
    await proxy?.close();
  }
}

/** The core's config.json: the bench provider at `baseUrl`, active, plus `extra`. */
export function writeProviderConfig(configDir: string, baseUrl: string, extra: Record<string, unknown> = {}): void {
  const config = {
    providers: [{ name: 'bench', kind: 'openai', base_url: baseUrl, api_key: 'bench-not-a-secret' }],
    activeProvider: 'bench',
    ...extra,
  };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
}

/** A report's line for the long tasks > 50 ms inside the webview while it streamed (budget: none). */
export function longTasksLine(tasks: readonly LongTask[], supported: boolean): string {
  const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  return (
    `  long tasks > 50 ms          : ${tasks.length}${tasks.length ? ` (longest ${longest.toFixed(0)} ms)` : ''}  (budget 0: ${tasks.length === 0 ? 'within' : 'OVER'})` +
    (supported ? `  [by source: ${describeSources(tasks)}]` : '  [this Chromium does not report long tasks in the frame]')
  );
}

/** "self 2 (130 ms), same-origin-ancestor 1 (60 ms)": 'self' is the webview's own frame, '*-ancestor' the workbench page sharing its main thread. */
function describeSources(tasks: readonly LongTask[]): string {
  const bySource = new Map<string, { n: number; ms: number }>();
  for (const t of tasks) {
    const entry = bySource.get(t.source) ?? { n: 0, ms: 0 };
    entry.n++;
    entry.ms += t.duration;
    bySource.set(t.source, entry);
  }
  return [...bySource].map(([source, { n, ms }]) => `${source} ${n} (${ms.toFixed(0)} ms)`).join(', ') || 'none';
}
