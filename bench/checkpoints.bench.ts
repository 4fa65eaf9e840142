// Checkpoint create / restore times and disk growth on a generated 10k-file workspace, once as a git repository
// (snapshots in the user's object store) and once as a plain folder (the private shadow repository). Budget (issue #5):
// create ≤ 200 ms p95. Runs the core's CheckpointManager in-process: exactly the work behind `create_checkpoint`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckpointManager } from '../src/core/checkpoints/checkpointManager';

const FILES = 10_000;
const DIRS = 100;
const RUNS = 12;
const CHANGED = 10;
const BUDGET_P95_MS = 200;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x: number) => `${x.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Apparent bytes and allocated bytes (st_blocks) of everything under `dir`. */
function diskUsage(dir: string): { bytes: number; allocated: number } {
  let bytes = 0;
  let allocated = 0;
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        bytes += st.size;
        allocated += st.blocks * 512;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return { bytes, allocated };
}

function generate(ws: string): string[] {
  const files: string[] = [];
  for (let d = 0; d < DIRS; d++) {
    fs.mkdirSync(path.join(ws, 'src', `mod${d}`), { recursive: true });
    for (let i = d; i < FILES; i += DIRS) {
      const rel = `src/mod${d}/file${i}.ts`;
      fs.writeFileSync(path.join(ws, rel), `// file ${i}\n` + `export const value${i} = ${i};\n`.repeat(1 + (i % 40)));
      files.push(rel);
    }
  }
  fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
  return files;
}

function gitSetup(ws: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'gc.auto', '0');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'generated');
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

async function bench(kind: 'git' | 'no git'): Promise<boolean> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catcode-cp-bench-'));
  try {
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    const files = generate(ws);
    if (kind === 'git') gitSetup(ws);
    const dataDir = path.join(tmp, 'data');
    const objects = kind === 'git' ? path.join(ws, '.git', 'objects') : path.join(dataDir, 'shadow.git', 'objects');
    const cm = new CheckpointManager({
      workspace: ws,
      indexPath: path.join(tmp, 'bench.checkpoints.jsonl'),
      filesStoreDir: path.join(ws, '.catalyst-code', 'checkpoints'),
      dataDir,
    });

    const before = diskUsage(objects);
    const [first, cold] = await timed(() => cm.create({ auto: true }));
    await cm.idle(); // the shadow store packs its loose objects in the background
    const afterFirst = diskUsage(objects);

    const unchanged: number[] = [];
    let sizeAt = afterFirst;
    const growthUnchanged: number[] = [];
    const apparentUnchanged: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      unchanged.push((await timed(() => cm.create({ auto: true })))[1]);
      await cm.idle();
      const now = diskUsage(objects);
      growthUnchanged.push(now.allocated - sizeAt.allocated);
      apparentUnchanged.push(now.bytes - sizeAt.bytes);
      sizeAt = now;
    }

    const changed: number[] = [];
    const growthChanged: number[] = [];
    const apparentChanged: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < CHANGED; k++) fs.appendFileSync(path.join(ws, files[(i * 997 + k * 131) % files.length]), `// edit ${i}.${k}\n`);
      changed.push((await timed(() => cm.create({ auto: true })))[1]);
      await cm.idle();
      const now = diskUsage(objects);
      growthChanged.push(now.allocated - sizeAt.allocated);
      apparentChanged.push(now.bytes - sizeAt.bytes);
      sizeAt = now;
    }

    fs.writeFileSync(path.join(ws, 'src', 'created-after.ts'), 'export {};\n');
    const [diff, changesMs] = await timed(() => cm.changedFiles(first.id));
    const [restored, restoreMs] = await timed(() => cm.restore(first.id));
    const [, noopRestoreMs] = await timed(() => cm.restore(first.id));
    fs.appendFileSync(path.join(ws, files[0]), '// one more\n');
    const [, fileRestoreMs] = await timed(() => cm.restore(first.id, [files[0]]));

    const p50 = percentile(unchanged, 0.5);
    const p95 = percentile(unchanged, 0.95);
    const p95Changed = percentile(changed, 0.95);
    const pass = p95 <= BUDGET_P95_MS && p95Changed <= BUDGET_P95_MS;
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`\n${kind === 'git' ? 'git repository' : 'folder without git (shadow repository)'}: ${FILES} files in ${DIRS} directories`);
    console.log(
      `  first checkpoint (cold)        : ${ms(cold)}; object store +${kb(afterFirst.allocated - before.allocated)} on disk (${kb(afterFirst.bytes - before.bytes)} apparent)`,
    );
    console.log(
      `  create, unchanged tree (${RUNS}x)   : p50 ${ms(p50)}, p95 ${ms(p95)}; disk growth per checkpoint avg ${kb(avg(growthUnchanged))} (${kb(avg(apparentUnchanged))} apparent), max ${kb(Math.max(...growthUnchanged))}`,
    );
    console.log(
      `  create, ${CHANGED} files changed (${RUNS}x): p50 ${ms(percentile(changed, 0.5))}, p95 ${ms(p95Changed)}; disk growth per checkpoint avg ${kb(avg(growthChanged))} (${kb(avg(apparentChanged))} apparent), max ${kb(Math.max(...growthChanged))}`,
    );
    console.log(`  checkpoint_changes (${diff.length} files) : ${ms(changesMs)}`);
    console.log(
      `  restore (${restored.restored.length} written, ${restored.removed.length} removed): ${ms(restoreMs)}; again (nothing to do) ${ms(noopRestoreMs)}; one file ${ms(fileRestoreMs)}`,
    );
    console.log(`  budget create p95 ≤ ${BUDGET_P95_MS} ms: ${pass ? 'PASS' : 'FAIL'}`);
    return pass;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(
    `checkpoints bench — git ${execFileSync('git', ['--version']).toString().trim().replace('git version ', '')}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  await bench('git');
  await bench('no git');
  console.log(
    `\nload average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (other processes slow every git spawn down)`,
  );
}

void main();
