// The project rules' first walk at `init` on a big workspace (4,400 folders: more than the walk's 4,000-folder bound):
// `init` → `ready` (budget ≤ 150 ms, BRIEF §5), `init` → the answer to a command sent right behind it (what the walk
// holds up, if it blocks the core), and `init` → the `rules` event (the walk's own length). 9 runs, median and p95.
// CATALYST_TEST_CORE_JS compares another build (e.g. one from before the walk was asynchronous).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CoreProcess, type CoreEvent } from '../test/support/coreProcess';
import { startScriptedModelServer } from '../test/support/scriptedModelServer';

const RUNS = 9;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** 40 × 10 × 10 leaf folders of five files each, and an AGENTS.md at the root. */
function bigWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'rules-bench-'));
  for (let a = 0; a < 40; a++) {
    for (let b = 0; b < 10; b++) {
      for (let c = 0; c < 10; c++) {
        const dir = join(root, `a${a}`, `b${b}`, `c${c}`);
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 5; f++) writeFileSync(join(dir, `f${f}.ts`), 'export {};\n');
      }
    }
  }
  writeFileSync(join(root, 'AGENTS.md'), '# Rules\nRun the tests.\n');
  return root;
}

async function main(): Promise<void> {
  const server = await startScriptedModelServer({ models: ['bench-model'] });
  const workspace = bigWorkspace();
  const toReady: number[] = [];
  const toAnswer: number[] = [];
  const toRules: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const core = CoreProcess.start({ workspace, providers: [{ name: 'bench', base_url: server.url, api_key: 'sk-bench-0000000000' }] });
    await new Promise((r) => core.child.once('spawn', r));
    await new Promise((r) => setTimeout(r, 150)); // let the process load before timing init alone
    const at = (type: string) => core.waitForType(type).then((e: CoreEvent) => (void e, performance.now()));
    const t0 = performance.now();
    core.sendRaw(`${JSON.stringify({ type: 'init', protocol_version: 2 })}\n${JSON.stringify({ type: 'runtime_status' })}\n`);
    const [ready, answer, rules] = await Promise.all([at('ready'), at('runtime_status'), at('rules')]);
    toReady.push(ready - t0);
    toAnswer.push(answer - t0);
    toRules.push(rules - t0);
    await core.close();
    rmSync(core.home, { recursive: true, force: true });
  }
  await server.close();
  rmSync(workspace, { recursive: true, force: true });
  const fmt = (xs: number[]) => `median ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms`;
  console.log(`init → ready                  : ${fmt(toReady)} (budget ≤ 150 ms: ${percentile(toReady, 0.5) <= 150 ? 'PASS' : 'FAIL'})`);
  console.log(`init → next command's answer  : ${fmt(toAnswer)}`);
  console.log(`init → rules (the first walk) : ${fmt(toRules)}`);
}

void main();
