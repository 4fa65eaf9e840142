/**
 * A finished child's worktree changes come back as proposals: inner calls of the parent's `subagent` call
 * (`write_file{path, content}` or `delete{path}`), reviewed like any write. A file the user left alone since the seed
 * is proposed as the child left it; one the user changed too is merged (`git merge-file`) and proposed only when the
 * merge is clean. Conflicts, binary files and symlinks are flagged, never proposed. Upstream copies everything back
 * unasked and overwrites the user's edits.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { decodeText } from '../platform/fileText';
import { baseState, isLinkedPath, type EmitWorktreeEvent, type Worktree } from './worktree';
import { listFiles, mapInBatches, readPathState, runGit, sameState, stateDigest, type PathState } from './worktreeGit';

export interface PromoteDeps {
  /**
   * The parent's `subagent` call's ctx.runInner: each proposal is its own gated call `<callId>.<n>`. Only whether it
   * was applied matters here (a tool's outcome has more; worktrees sit below tools and name none of their types).
   */
  runInner(name: string, args: Record<string, unknown>): Promise<{ ok: boolean }>;
  /** An `info` event in the calling run. */
  info(message: string): void;
  emit: EmitWorktreeEvent;
  /** Once it fires (the user aborted during the review), no further change is proposed. */
  signal?: AbortSignal;
}

export interface PromoteReport {
  /** Applied, as in `worktree_promoted.paths` (`deleted:<rel>` for deletions). */
  written: string[];
  /** Applied after a clean merge with the user's own changes. */
  rebased: string[];
  /** Proposed but not applied (denied, failed or cancelled). */
  declined: string[];
  /** Not proposed: `<path> (<why>)`. */
  flagged: string[];
  /** For the parent model, appended to the tool result; empty when the child changed nothing. */
  summary: string;
}

type Plan =
  | { kind: 'write'; rel: string; content: string; rebased: boolean }
  | { kind: 'delete'; rel: string }
  | { kind: 'flag'; rel: string; why: string };

/** Proposes the child's changes back to the main tree, then emits `worktree_promoted` if any was applied. */
export async function proposeWorktreeChanges(wt: Worktree, deps: PromoteDeps): Promise<PromoteReport> {
  const report: PromoteReport = { written: [], rebased: [], declined: [], flagged: [], summary: '' };
  for (const rel of await changedPaths(wt)) {
    if (deps.signal?.aborted) break;
    const plan = await planPath(wt, rel);
    if (!plan) continue;
    if (plan.kind === 'flag') {
      report.flagged.push(`${rel} (${plan.why})`);
      continue;
    }
    const outcome =
      plan.kind === 'write'
        ? await deps.runInner('write_file', { path: rel, content: plan.content })
        : await deps.runInner('delete', { path: rel });
    if (!outcome.ok) report.declined.push(rel);
    else {
      report.written.push(plan.kind === 'delete' ? `deleted:${rel}` : rel);
      if (plan.kind === 'write' && plan.rebased) report.rebased.push(rel);
    }
  }
  if (report.flagged.length) deps.info(`worktree ${wt.runId}: not proposed back: ${report.flagged.join(', ')}`);
  if (report.written.length) deps.emit({ type: 'worktree_promoted', run_id: wt.runId, paths: report.written });
  report.summary = summarize(report);
  return report;
}

/** The paths whose content in the worktree differs from the baseline, sorted (the dependency links are not the child's). */
async function changedPaths(wt: Worktree): Promise<string[]> {
  const listed = (await listFiles(wt.root)).filter((rel) => !isLinkedPath(wt, rel));
  const candidates = [...new Set([...wt.baseline.digests.keys(), ...listed])];
  const digests = await mapInBatches(candidates, async (rel) => stateDigest(await readPathState(path.join(wt.root, rel))));
  return candidates.filter((rel, i) => digests[i] !== wt.baseline.digests.get(rel)).sort();
}

/** What to propose for one changed path, or nothing when the main tree already has the child's version. */
async function planPath(wt: Worktree, rel: string): Promise<Plan | undefined> {
  const ours = await readPathState(path.join(wt.root, rel));
  const main = await readPathState(path.join(wt.mainRoot, rel));
  if (sameState(ours, main)) return undefined;
  if (ours.kind === 'link' || main.kind === 'link') return { kind: 'flag', rel, why: 'symlink' };
  const mainUntouched = stateDigest(main) === wt.baseline.digests.get(rel);
  if (ours.kind === 'missing')
    return mainUntouched ? { kind: 'delete', rel } : { kind: 'flag', rel, why: 'you changed it, the subagent deleted it' };
  const content = decodeText(ours.bytes);
  if (content === undefined) return { kind: 'flag', rel, why: 'binary' };
  if (mainUntouched) return { kind: 'write', rel, content, rebased: false };
  if (main.kind === 'missing') return { kind: 'flag', rel, why: 'you deleted it, the subagent changed it' };
  const merged = await mergeThreeWay(wt, rel, main.bytes, await baseState(wt, rel), ours.bytes);
  if (merged === undefined) return { kind: 'flag', rel, why: 'conflicts with your changes' };
  const text = decodeText(merged);
  return text === undefined ? { kind: 'flag', rel, why: 'binary' } : { kind: 'write', rel, content: text, rebased: true };
}

/** `git merge-file -p main base ours`: the merged bytes, or undefined on a conflict. */
async function mergeThreeWay(wt: Worktree, rel: string, main: Buffer, base: PathState, ours: Buffer): Promise<Buffer | undefined> {
  const dir = await fs.mkdtemp(path.join(wt.baseline.copiesDir, '.merge-'));
  try {
    const files = { main: path.join(dir, 'main'), base: path.join(dir, 'base'), ours: path.join(dir, 'ours') };
    await fs.writeFile(files.main, main);
    await fs.writeFile(files.base, base.kind === 'file' ? base.bytes : '');
    await fs.writeFile(files.ours, ours);
    const run = await runGit(dir, ['merge-file', '-p', files.main, files.base, files.ours]);
    if (run.code !== 0) return undefined;
    return run.stdout;
  } catch (error) {
    throw new Error(`merging ${rel}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function summarize(r: PromoteReport): string {
  const lines: string[] = [];
  if (r.written.length) {
    const rebased = new Set(r.rebased);
    lines.push(`Worktree changes applied: ${r.written.map((p) => (rebased.has(p) ? `${p} (rebased on your changes)` : p)).join(', ')}`);
  }
  if (r.declined.length) lines.push(`Worktree changes declined: ${r.declined.join(', ')}`);
  if (r.flagged.length) lines.push(`Worktree changes NOT proposed (the worktree is removed; redo them if needed): ${r.flagged.join(', ')}`);
  return lines.join('\n');
}
