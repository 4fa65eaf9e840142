/**
 * The `subagent` tool's use of worktrees (`worktree: true`): a child runs with its worktree as its workspace; once it
 * completed, its changes are proposed back (promote.ts); the worktree and its branch are removed whatever happened.
 */
import type { ChildResult } from '../agents/subagentHost';
import type { ToolOutcome } from '../tools/types';
import { proposeWorktreeChanges } from '../worktrees/promote';
import {
  createWorktree,
  createWorktrees,
  type EmitWorktreeEvent,
  isGitWorkTree,
  removeWorktree,
  type Worktree,
  WORKTREE_REQUIRES_GIT,
} from '../worktrees/worktree';

export interface WorktreeDeps {
  /** The calling agent's workspace (ctx.workspace). */
  workspace: string;
  /** `host.emitWorktree`: worktree_* events in the calling run, keeping the child's run_id. */
  emit: EmitWorktreeEvent;
  /** `host.info`. */
  info(message: string): void;
  /** The subagent call's ctx.runInner: each change comes back as its inner call `<callId>.<n>`. */
  runInner?(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The subagent call's signal: nothing is proposed once it fired. */
  signal: AbortSignal;
}

/** Upstream's refusal outside a git work tree, checked before anything is emitted; undefined when worktrees can be made. */
export async function worktreeRefusal(workspace: string): Promise<string | undefined> {
  return (await isGitWorkTree(workspace)) ? undefined : WORKTREE_REQUIRES_GIT;
}

/**
 * Runs one child in a new worktree for `runId`: `run` gets the child's workspace. A setup failure is a failed result
 * (no child ran); after a completed child its changes are proposed back and the proposals' summary is appended to
 * its output.
 */
export async function runChildInWorktree(
  deps: WorktreeDeps,
  runId: string,
  run: (workspace: string) => Promise<ChildResult>,
): Promise<ChildResult> {
  let wt: Worktree;
  try {
    wt = await createWorktree(deps.workspace, runId, deps.emit);
  } catch (error) {
    return { ok: false, output: errorText(error), state: 'failed' };
  }
  try {
    return await promoteAfter(deps, wt, await run(wt.root));
  } finally {
    await removeWorktree(wt, deps.emit);
  }
}

/** A parallel batch's worktrees: all made before any child starts, promoted in input order once all ended, then removed. */
export interface BatchWorktrees {
  /** The children's workspaces, in input order. */
  readonly workspaces: string[];
  /** Proposes each completed child's changes (in input order), removes every worktree; returns the results with the summaries. */
  close(results: readonly ChildResult[]): Promise<ChildResult[]>;
}

/** Makes the worktrees of a batch's children `runIds` (`<batch>-<i>`); throws `worktree setup failed for task i: …` after removing those made. */
export async function openBatchWorktrees(deps: WorktreeDeps, runIds: string[]): Promise<BatchWorktrees> {
  const worktrees = await createWorktrees(deps.workspace, runIds, deps.emit);
  return {
    workspaces: worktrees.map((wt) => wt.root),
    async close(results) {
      const closed: ChildResult[] = [];
      try {
        for (const [i, wt] of worktrees.entries()) closed.push(await promoteAfter(deps, wt, results[i]));
      } finally {
        for (const wt of worktrees) await removeWorktree(wt, deps.emit);
      }
      return closed;
    },
  };
}

/** Upstream promotes only an ok child whose call was not cancelled; a failed promotion leaves the child's result, with a note. */
async function promoteAfter(deps: WorktreeDeps, wt: Worktree, result: ChildResult): Promise<ChildResult> {
  if (!result.ok || result.state !== 'completed' || deps.signal.aborted) return result;
  if (!deps.runInner) return withNote(result, 'Worktree changes NOT proposed: this call cannot propose changes');
  try {
    const report = await proposeWorktreeChanges(wt, { runInner: deps.runInner, info: deps.info, emit: deps.emit, signal: deps.signal });
    return report.summary ? withNote(result, report.summary) : result;
  } catch (error) {
    const message = `worktree promote failed: ${errorText(error)}`;
    deps.info(message);
    return withNote(result, message);
  }
}

function withNote(result: ChildResult, note: string): ChildResult {
  return { ...result, output: `${result.output}\n\n${note}` };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
