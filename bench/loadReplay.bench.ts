// Load (issue #7): a 4-hour-equivalent session — 5,000 transcript messages, 500 tool calls, 200 approvals — replayed
// through the client (the extension host's SessionController and the real embedded core) and the chat webview, in
// code-server's Chromium against the scripted model server. Most of the history is a session file written before VS Code
// starts (the extension resumes it: the newest session of the workspace); the rest are live turns driven through the chat
// UI, each reading files and writing four new files with approvals (answered from the chat card, every 10th with the Accept
// keybinding in the diff editor) and answering. Every few turns it samples the webview's JS heap (after a GC), the
// extension host's RSS and the core's RSS; it measures typing latency at the start and at the end. Memory is "flat" when
// the end heap is within +20 % of the value after the warm-up (the first sample ≥ 2 minutes into the live turns).
// A report, not a test: no pass/fail exit. Tunables (env): BENCH_LOAD_LIVE_TURNS (default 50; fewer for a quick try —
// the history file then holds more of the messages and tool calls, and fewer approvals happen), BENCH_LOAD_SAMPLE_EVERY
// (5), BENCH_LOAD_WARMUP_S (120), BENCH_LOAD_MAX_MINUTES (12: stop the live turns early, the report says so).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { sessionsDirFor, timestampedSessionName } from '../src/protocol/sessionLayout';
import { TEST_IDS } from '../src/shared/webviewMessages';
import type { ScriptedResponse } from '../test/support/scriptedModelServer';
import { approvalCard, coreEnvFolderSettings, promptAgent, textTurn, toolCallTurn } from '../test/e2e/harness/approvals';
import { waitForIdle } from '../test/e2e/harness/chatActions';
import { byTestId, chatFrame } from '../test/e2e/harness/chatView';
import { modifiedSide, proposalTabs, waitForProposal } from '../test/e2e/harness/diffEditor';
import { startE2eEnv, type E2eEnv } from '../test/e2e/harness/e2eEnv';
import { runCommand } from '../test/e2e/harness/quickInput';
import { waitUntil } from '../test/e2e/harness/wait';
import { percentile } from '../test/e2e/harness/webviewProbe';
import {
  extensionHostPidsUnder,
  heapProbe,
  loadAverage,
  MB,
  nodeHeapProbe,
  rssBytes,
  typingLatency,
  type NodeHeapProbe,
} from './support/webviewMetrics';

const MODEL = 'bench-model';
const TITLE = 'Bench: the 4-hour session';
const HISTORY_MARKER = 'Zq9history';
const TURN_MARKER = (n: number) => `Zq9turn${n}end`;

// The totals the transcript reaches (session-file messages: user, assistant, tool).
const TOTAL_MESSAGES = 5_000;
const TOTAL_TOOL_CALLS = 500;
const TOTAL_APPROVALS = 200;

// Live turns: a prompt, then per approval a read_file (no approval) and a write_file (approval), then a text answer.
const APPROVALS_PER_TURN = 4;
/** 50: the 200 approvals. Fewer (for a quick try) moves the difference into the history file. */
const LIVE_TURNS = envInt('BENCH_LOAD_LIVE_TURNS', Math.ceil(TOTAL_APPROVALS / APPROVALS_PER_TURN));
const TOOL_CALLS_PER_TURN = 2 * APPROVALS_PER_TURN;
/** user + (assistant with the call + tool result) per call + the final assistant text. */
const MESSAGES_PER_TURN = 2 + 2 * TOOL_CALLS_PER_TURN;
const KEYBINDING_EVERY = 10;
const SAMPLE_EVERY = envInt('BENCH_LOAD_SAMPLE_EVERY', 5);
const WARMUP_MS = envInt('BENCH_LOAD_WARMUP_S', 120) * 1000;
const VERBOSE = Boolean(process.env.BENCH_LOAD_VERBOSE);
const DEBUG_LOG = '../core-debug.jsonl';
/**
 * catalystCode.review.openDiffAutomatically is off unless BENCH_LOAD_AUTO_DIFF=1: the approvals answered by keybinding
 * open the diff editor from the card's "Review in Diff Editor" first. With it on (the product default) every approval
 * opens a diff tab, which on a loaded 2-vCPU machine makes a turn 2–3× slower (the tab and the webview share the
 * renderer's main thread) and the bench no longer fits in 15 minutes.
 */
const AUTO_DIFF_OFF = !process.env.BENCH_LOAD_AUTO_DIFF;
const MAX_LIVE_MS = envInt('BENCH_LOAD_MAX_MINUTES', 12) * 60_000;

// The history file holds the rest: plain question/answer turns and tool turns (user, assistant call, tool, assistant).
const HISTORY_TOOL_CALLS = Math.min(
  Math.max(0, TOTAL_TOOL_CALLS - LIVE_TURNS * TOOL_CALLS_PER_TURN),
  Math.floor(envInt('BENCH_LOAD_HISTORY_MESSAGES', TOTAL_MESSAGES) / 4),
);
/** BENCH_LOAD_HISTORY_MESSAGES overrides the history's size (to compare the same live turns over a small transcript). */
const HISTORY_MESSAGES = envInt('BENCH_LOAD_HISTORY_MESSAGES', Math.max(0, TOTAL_MESSAGES - LIVE_TURNS * MESSAGES_PER_TURN));

const SEEDED_FILES = 20;
const BUDGET = { typingP95Ms: 50, heapMb: 150 };

interface Sample {
  turn: number;
  elapsedMs: number;
  messages: number;
  heapMb: number;
  extHostMb?: number;
  coreMb?: number;
  coreHeapMb?: number;
  coreExternalMb?: number;
  corePid?: number;
}

async function main(): Promise<void> {
  let sessionFile = '';
  const files: Record<string, string> = {};
  for (let i = 0; i < SEEDED_FILES; i++) files[`src/module${i}.ts`] = moduleSource(i);
  // The core's V8 heap after a GC, on request (a preload answering SIGUSR2); with BENCH_LOAD_VERBOSE also the core's debug
  // log (every event in and out, time-stamped), which explains each turn's time. Folder settings: see coreEnvFolderSettings.
  const probeDir = mkdtempSync(join(tmpdir(), 'catalyst-load-'));
  const coreHeap = nodeHeapProbe(probeDir);
  Object.assign(files, coreEnvFolderSettings({ ...coreHeap.coreEnv(), ...(VERBOSE ? { CATALYST_CODE_DEBUG_LOG: DEBUG_LOG } : {}) }));
  const env = await startE2eEnv({
    models: [MODEL],
    files,
    chromiumArgs: ['--enable-precise-memory-info'],
    settings: { 'catalystCode.autoCompact': false, ...(AUTO_DIFF_OFF ? { 'catalystCode.review.openDiffAutomatically': false } : {}) },
    beforeLaunch: ({ configDir, workspace, model }) => {
      // A context window large enough for the whole transcript, and no automatic compaction (it would consume a scripted
      // response and shrink the transcript): the bench is about the transcript growing.
      writeFileSync(
        join(configDir, 'config.json'),
        JSON.stringify({
          providers: [{ name: 'bench', kind: 'openai', base_url: model.url, api_key: 'bench-not-a-secret', context_window: 4_000_000 }],
          activeProvider: 'bench',
          auto_compact: false,
        }),
      );
      sessionFile = writeHistory(configDir, workspace);
    },
  });
  try {
    await run(env, sessionFile, coreHeap);
  } finally {
    await env.close();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

async function run(env: E2eEnv, sessionFile: string, coreHeap: NodeHeapProbe): Promise<void> {
  const { page, model } = env;
  const chat = env.chat('sidebar');
  const launchedAt = Date.now();
  await runCommand(page, 'Catalyst: Open Chat');
  await chat.locator(byTestId(TEST_IDS.composer)).first().waitFor({ state: 'visible', timeout: 90_000 });
  // The extension resumes the workspace's newest session: the history written above.
  await waitUntil(async () => (await chat.getByText(HISTORY_MARKER).count()) > 0, {
    timeoutMs: 120_000,
    intervalMs: 250,
    what: "the history's last message on screen",
  });
  const historyShownMs = Date.now() - launchedAt;

  let frame = await chatFrame(page, 'sidebar');
  const heap = await heapProbe(page, frame);
  const typingStart = await typingLatency(frame, page.keyboard);

  const samples: Sample[] = [];
  const corePids = new Set<number>();
  const liveStarted = Date.now();
  const sample = async (turn: number) => {
    const corePid = env.corePids()[0];
    if (corePid !== undefined) corePids.add(corePid);
    const extHost = corePid !== undefined ? parentOf(corePid) : extensionHostPidsUnder(env.workbench.rootPid)[0];
    const heapOfCore = await coreHeap.read(corePid);
    const s: Sample = {
      turn,
      elapsedMs: Date.now() - liveStarted,
      messages: HISTORY_MESSAGES + turn * MESSAGES_PER_TURN,
      heapMb: (await heap.usedBytes()) / MB,
      extHostMb: mb(rssBytes(extHost)),
      coreMb: mb(rssBytes(corePid)),
      coreHeapMb: heapOfCore?.heapUsedMb,
      coreExternalMb: heapOfCore?.externalMb,
      corePid,
    };
    samples.push(s);
    console.log(
      `  [turn ${String(turn).padStart(3)}  ${(s.elapsedMs / 1000).toFixed(0).padStart(4)} s  ~${s.messages} messages]  webview heap ${s.heapMb.toFixed(1)} MB` +
        `  ext host RSS ${fmt(s.extHostMb)} MB  core RSS ${fmt(s.coreMb)} MB, heap ${fmt(s.coreHeapMb)} MB + external ${fmt(s.coreExternalMb)} MB  (load ${loadAverage()})`,
    );
  };

  console.log(
    `load replay: history of ${HISTORY_MESSAGES} messages (${HISTORY_TOOL_CALLS} tool calls) resumed in ${(historyShownMs / 1000).toFixed(1)} s after Open Chat; ` +
      `${LIVE_TURNS} live turns of ${MESSAGES_PER_TURN} messages (${TOOL_CALLS_PER_TURN} tool calls, ${APPROVALS_PER_TURN} approvals) each; heap scope: ${heap.scope}`,
  );
  await sample(0);

  let approvals = 0;
  let byKeybinding = 0;
  let turnsDone = 0;
  const turnMs: number[] = [];
  let stoppedEarly = false;
  for (let turn = 1; turn <= LIVE_TURNS; turn++) {
    if (Date.now() - liveStarted > MAX_LIVE_MS) {
      stoppedEarly = true;
      break;
    }
    const started = Date.now();
    const phases: string[] = [];
    const phase = (what: string) => phases.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}`);
    const writes = Array.from({ length: APPROVALS_PER_TURN }, (_, k) => `live/t${turn}-${k}.txt`);
    model.enqueue(...liveScript(turn, writes));
    if (VERBOSE) {
      // When each model request arrives (the recorded-requests array is the server's own; only its push is wrapped).
      const requests = model.requests;
      const push = Array.prototype.push;
      requests.push = (...items) => {
        if (items.some((r) => r.method === 'POST')) phase('req');
        return push.apply(requests, items);
      };
    }
    await promptAgent(chat, `Step ${turn}: read ${writes.length} modules and write ${writes.join(' and ')} with a summary of each.`);
    phase('sent');
    for (const path of writes) {
      const card = approvalCard(chat, path);
      await cardInState(chat, path, 'pending').waitFor({ state: 'attached', timeout: 60_000 });
      phase('pending');
      approvals++;
      if (approvals % KEYBINDING_EVERY === 0) {
        if (AUTO_DIFF_OFF) await card.locator(byTestId(TEST_IDS.approvalReview)).first().click();
        await acceptWithKeybinding(page, path);
        byKeybinding++;
      } else {
        await card.locator(byTestId(TEST_IDS.approvalAccept)).first().click();
      }
      await cardInState(chat, path, 'approved').waitFor({ state: 'attached', timeout: 30_000 });
      phase('approved');
    }
    await waitUntil(() => model.pending === 0, { timeoutMs: 60_000, what: `turn ${turn}'s scripted responses to be consumed` });
    phase('consumed');
    await waitForIdle(chat, 60_000);
    phase('idle');
    await chat
      .locator(byTestId(TEST_IDS.assistantMessage))
      .filter({ hasText: TURN_MARKER(turn) })
      .last()
      .waitFor({ state: 'visible', timeout: 30_000 });
    phase('answer');
    if (VERBOSE) {
      console.log(`    turn ${turn}: ${phases.join(', ')} s`);
      console.log(`      core: ${coreTimeline(join(env.workspace, DEBUG_LOG), started)}`);
    }
    for (const path of writes) {
      if (!existsSync(join(env.workspace, path))) throw new Error(`${path} was approved but not written`);
    }
    // The server keeps every request (each carries the whole conversation): keep the bench's own memory flat.
    model.requests.length = 0;
    turnMs.push(Date.now() - started);
    turnsDone = turn;
    if (turn % SAMPLE_EVERY === 0 || turn === LIVE_TURNS) await sample(turn);
  }
  if (samples[samples.length - 1].turn !== turnsDone) await sample(turnsDone);

  if ((await proposalTabs(page).count()) > 0) await runCommand(page, 'View: Close All Editors');
  frame = await chatFrame(page, 'sidebar');
  const typingEnd = await typingLatency(frame, page.keyboard);

  const counted = countSession(sessionFile);
  const items = await transcriptItemCount(frame);
  const start = samples[0];
  const warm = samples.find((s) => s.turn > 0 && s.elapsedMs >= WARMUP_MS);
  const end = samples[samples.length - 1];
  const growth = (a: number | undefined, b: number | undefined) =>
    a && b ? `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(0)} %` : 'n/a';
  const verdict =
    warm && warm !== end ? (end.heapMb <= warm.heapMb * 1.2 ? 'flat' : 'GROWING') : 'n/a (the live turns ended before the warm-up did)';

  console.log('');
  console.log(
    `load replay — results (${turnsDone}/${LIVE_TURNS} live turns${stoppedEarly ? `, stopped at the ${MAX_LIVE_MS / 60_000}-minute limit` : ''}; ` +
      `live time ${((Date.now() - liveStarted) / 60_000).toFixed(1)} min, turn median ${(percentile(turnMs, 50) / 1000).toFixed(1)} s, p95 ${(percentile(turnMs, 95) / 1000).toFixed(1)} s)`,
  );
  const rows: Array<[string, string]> = [
    [
      'messages (session file: user / assistant / tool)',
      `${counted.messages}  (${counted.user} / ${counted.assistant} / ${counted.tool}; target ${TOTAL_MESSAGES})`,
    ],
    ['tool calls', `${counted.toolCalls}  (target ${TOTAL_TOOL_CALLS})`],
    [
      'approvals answered',
      `${approvals}  (${approvals - byKeybinding} chat card, ${byKeybinding} Accept keybinding; target ${TOTAL_APPROVALS})`,
    ],
    ['webview transcript items', `${items ?? 'n/a'}`],
    [
      'webview heap MB  start / after warm-up / end',
      `${start.heapMb.toFixed(1)} / ${warm ? `${warm.heapMb.toFixed(1)} (${(warm.elapsedMs / 1000).toFixed(0)} s)` : 'n/a'} / ${end.heapMb.toFixed(1)}  ` +
        `(warm-up → end ${growth(warm?.heapMb, end.heapMb)}; budget ≤ ${BUDGET.heapMb} MB: ${end.heapMb <= BUDGET.heapMb ? 'within' : 'OVER'})`,
    ],
    [
      'ext host RSS MB  start / after warm-up / end',
      `${fmt(start.extHostMb)} / ${fmt(warm?.extHostMb)} / ${fmt(end.extHostMb)}  (warm-up → end ${growth(warm?.extHostMb, end.extHostMb)})`,
    ],
    [
      'core RSS MB  start / after warm-up / end',
      `${fmt(start.coreMb)} / ${fmt(warm?.coreMb)} / ${fmt(end.coreMb)}  (warm-up → end ${growth(warm?.coreMb, end.coreMb)}; core pids seen: ${corePids.size})`,
    ],
    [
      'core V8 heap after GC MB  start / after warm-up / end',
      `${fmt(start.coreHeapMb)} / ${fmt(warm?.coreHeapMb)} / ${fmt(end.coreHeapMb)}  (warm-up → end ${growth(warm?.coreHeapMb, end.coreHeapMb)}; external ${fmt(end.coreExternalMb)} MB at the end)`,
    ],
    [
      'typing p95 ms  start / end',
      `${fmtMs(percentile(typingStart, 95))} / ${fmtMs(percentile(typingEnd, 95))}  (median ${fmtMs(percentile(typingStart, 50))} / ${fmtMs(percentile(typingEnd, 50))}; ` +
        `budget ≤ ${BUDGET.typingP95Ms} ms: ${Math.max(percentile(typingStart, 95), percentile(typingEnd, 95)) <= BUDGET.typingP95Ms ? 'within' : 'OVER'})`,
    ],
    ['verdict (end heap ≤ warm-up heap + 20 %)', verdict],
    ['machine load average (1, 5, 15 min)', `${loadAverage()} at the end; ${os2Cpus()} CPUs`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)} : ${v}`);
}

/** One live turn's script: per written file, a read_file of a seeded module and the write_file; then the answer. */
function liveScript(turn: number, writes: string[]): ScriptedResponse[] {
  const usage = { prompt: 2_000, completion: 60 };
  const script: ScriptedResponse[] = [];
  writes.forEach((path, k) => {
    const module = `src/module${(turn * 3 + k) % SEEDED_FILES}.ts`;
    script.push({
      ...toolCallTurn(`call_r_${turn}_${k}`, 'read_file', { path: module }, k === 0 ? `Reading ${module} first.` : undefined),
      usage,
    });
    script.push({ ...toolCallTurn(`call_w_${turn}_${k}`, 'write_file', { path, content: summaryText(turn, k, module) }), usage });
  });
  script.push({ ...textTurn(`${answerText(turn)}\n\nWrote ${writes.map((p) => `\`${p}\``).join(' and ')}. ${TURN_MARKER(turn)}`), usage });
  return script;
}

/** Clicks into the proposal's right side (the diff editor opens on its own) and presses Accept's keybinding. */
async function acceptWithKeybinding(page: Page, path: string): Promise<void> {
  const { diff } = await waitForProposal(page, path, 30_000);
  await modifiedSide(diff).locator('.view-lines').first().click();
  await page.keyboard.press('Control+Shift+Enter');
}

/** The approval card for `path` once it shows `state` (Playwright waits for it in the page, no polling from here). */
function cardInState(chat: FrameLocator, path: string, state: 'pending' | 'approved'): Locator {
  return chat
    .locator(`${byTestId(TEST_IDS.approvalCard)}[data-state="${state}"]`)
    .filter({ hasText: path })
    .last();
}

/** The transcript is virtualized: the highest `data-vindex` in the DOM (scrolled to the bottom) + 1 is the item count. */
async function transcriptItemCount(frame: Frame): Promise<number | undefined> {
  const max = await frame
    .evaluate(() => {
      const all = Array.from((globalThis as any).document.querySelectorAll('[data-vindex]')) as any[];
      return all.reduce((m, el) => Math.max(m, Number(el.dataset.vindex)), -1);
    })
    .catch(() => -1);
  return max >= 0 ? max + 1 : undefined;
}

/** The core's events in and out since `since` (epoch ms), from its debug log, as `type@seconds` (deltas and stream chunks left out). */
function coreTimeline(file: string, since: number): string {
  if (!existsSync(file)) return '(no debug log)';
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const v = JSON.parse(line);
      const ts = typeof v.ts === 'number' ? v.ts : Date.parse(v.ts);
      const type = v.event?.type ?? v.command?.type ?? (v.dir === 'log' ? `log(${String(v.message).slice(0, 60)})` : v.type);
      if (!(ts >= since) || /delta|thinking|^usage$|token|^tool_call_(args|name|start)$/.test(String(type))) continue;
      out.push(`${v.dir === 'in' ? '←' : ''}${type}@${((ts - since) / 1000).toFixed(1)}`);
    } catch {
      // a line being written
    }
  }
  return out.join(' ');
}

function writeHistory(configDir: string, workspace: string): string {
  const dir = sessionsDirFor(configDir, workspace);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, timestampedSessionName(new Date(Date.now() - 4 * 3_600_000)));
  const lines = [JSON.stringify({ _session_version: 2 })];
  const toolTurns = HISTORY_TOOL_CALLS;
  const plainTurns = Math.floor((HISTORY_MESSAGES - 4 * toolTurns) / 2);
  const totalTurns = toolTurns + plainTurns;
  let toolsLeft = toolTurns;
  for (let t = 0; t < totalTurns; t++) {
    const last = t === totalTurns - 1;
    // Spread the tool turns evenly through the history.
    const isTool = toolsLeft > 0 && Math.floor((t * toolTurns) / totalTurns) !== Math.floor(((t + 1) * toolTurns) / totalTurns);
    lines.push(JSON.stringify({ role: 'user', content: `Question ${t}: how should the module ${t % 37} handle case ${t}?` }));
    if (isTool) {
      toolsLeft--;
      const id = `call_hist_${t}`;
      const write = t % 3 === 0;
      const path = write ? `notes/note${t}.md` : `src/module${t % SEEDED_FILES}.ts`;
      const args = write ? { path, content: `# Note ${t}\n\nThe module ${t % 37} handles case ${t} by trimming.\n` } : { path };
      lines.push(
        JSON.stringify({
          role: 'assistant',
          content: `Let me ${write ? 'write' : 'read'} \`${path}\`.`,
          tool_calls: [{ id, type: 'function', function: { name: write ? 'write_file' : 'read_file', arguments: JSON.stringify(args) } }],
        }),
      );
      lines.push(
        JSON.stringify({ role: 'tool', tool_call_id: id, content: write ? `wrote ${path} (3 lines)` : moduleSource(t % SEEDED_FILES) }),
      );
    }
    lines.push(JSON.stringify({ role: 'assistant', content: answerText(t) + (last ? `\n\n${HISTORY_MARKER}` : '') }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  writeFileSync(`${file}.meta.json`, JSON.stringify({ title: TITLE }) + '\n');
  return file;
}

function countSession(file: string): { messages: number; user: number; assistant: number; tool: number; toolCalls: number } {
  const out = { messages: 0, user: 0, assistant: 0, tool: 0, toolCalls: 0 };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let v: any;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (v.role !== 'user' && v.role !== 'assistant' && v.role !== 'tool') continue;
    out.messages++;
    out[v.role as 'user' | 'assistant' | 'tool']++;
    if (Array.isArray(v.tool_calls)) out.toolCalls += v.tool_calls.length;
  }
  return out;
}

function answerText(n: number): string {
  return (
    `### Answer ${n}\n\nKeep the **state** in one place and derive the view from it; see \`module${n % 37}.ts\`.\n\n` +
    '```ts\n' +
    `export function handle${n}(input: string): string {\n  return input.trim();\n}\n` +
    '```\n\n' +
    `- check the inputs\n- write a test for case ${n}\n`
  );
}

function summaryText(turn: number, k: number, module: string): string {
  return `# Summary ${turn}.${k}\n\n${module} exports one function that trims its input.\nChecked at step ${turn}.\n`;
}

function moduleSource(i: number): string {
  return `// module ${i}\nexport function handle${i}(input: string): string {\n  return input.trim();\n}\n\nexport const NAME_${i} = 'module${i}';\n`;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

const mb = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / MB);
const fmt = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(1));
const fmtMs = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
const os2Cpus = () => cpus().length;

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
