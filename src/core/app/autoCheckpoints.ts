/**
 * The checkpoints the core takes by itself: before a turn's first destructive tool, and before a goal's deploy. Each
 * has a time budget; past it the turn or the deploy goes on without one.
 */
import { CHECKPOINT_ERROR_CODES } from '../../protocol';
import type { CheckpointRecord } from '../checkpoints/types';
import type { RunEventOf } from '../runtime/eventSink';
import type { RunScope } from '../runtime/runScope';
import type { CoreRuntime } from './coreRuntime';

/** How long the automatic checkpoint may hold up a turn before it goes on without one. */
export const DEFAULT_CHECKPOINT_BUDGET_MS = 5000;

/** How many skipped paths a notice or event lists. */
const SKIPPED_SHOWN = 20;

const secs = (ms: number) => Math.floor(ms / 1000);

function mib(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function createdEvent(cp: CheckpointRecord): RunEventOf<'checkpoint_created'> {
  return {
    type: 'checkpoint_created',
    id: cp.id,
    label: cp.label,
    kind: cp.kind,
    auto: cp.auto,
    paths: cp.paths,
    created_at: secs(cp.created_at),
    ...(cp.skipped?.length ? { skipped: cp.skipped } : {}),
    ...(cp.max_file_bytes ? { max_file_bytes: cp.max_file_bytes } : {}),
  };
}

/** The notice for files a checkpoint left out for their size, or undefined. */
function skippedNotice(cp: CheckpointRecord): string | undefined {
  const skipped = cp.skipped ?? [];
  if (skipped.length === 0) return undefined;
  const shown = skipped.slice(0, SKIPPED_SHOWN).join(', ');
  const more = skipped.length > SKIPPED_SHOWN ? ` and ${skipped.length - SKIPPED_SHOWN} more` : '';
  return `checkpoint "${cp.label}" left out ${skipped.length} file(s) over ${mib(cp.max_file_bytes ?? 0)} (a restore leaves them as they are): ${shown}${more}`;
}

/** `checkpoint_created` (in the run when there is one), and the notice for the files it left out. */
export function emitCreated(rt: CoreRuntime, cp: CheckpointRecord, scope?: RunScope): void {
  const emit = (e: RunEventOf<'checkpoint_created' | 'info'>) => (scope ? rt.emitInRun(scope, e) : rt.emit(e));
  emit(createdEvent(cp));
  const notice = skippedNotice(cp);
  if (notice) emit({ type: 'info', message: notice });
}

/** CATALYST_CODE_CHECKPOINT_BUDGET_MS overrides the automatic checkpoint's time budget. */
function checkpointBudgetMs(rt: CoreRuntime): number {
  const ms = Number(rt.env.CATALYST_CODE_CHECKPOINT_BUDGET_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_CHECKPOINT_BUDGET_MS;
}

/**
 * Goal mode's snapshot before its workers run (upstream's `auto-before-goal-deploy`), under the same time budget as a
 * turn's; a failure or an overrun only informs, and the deploy goes on.
 */
export async function createGoalDeployCheckpoint(rt: CoreRuntime, goalId: string, signal: AbortSignal): Promise<void> {
  const budget = AbortSignal.timeout(checkpointBudgetMs(rt));
  try {
    const cp = await rt.checkpoints.create({
      label: 'auto-before-goal-deploy',
      auto: true,
      runId: goalId,
      signal: AbortSignal.any([signal, budget]),
    });
    emitCreated(rt, cp);
  } catch (err) {
    if (signal.aborted) return;
    const why = budget.aborted ? 'snapshotting the workspace took too long' : (err as Error).message;
    rt.emit({ type: 'info', message: `no checkpoint before the goal deploy: ${why}` });
  }
}

/**
 * The automatic checkpoint before a turn's first destructive tool. It gets a time budget: past it the snapshot is
 * abandoned (git killed, nothing recorded), the turn goes on, and `error{code:'checkpoint_timeout'}` says so.
 */
export async function createAutoCheckpoint(rt: CoreRuntime, scope: RunScope): Promise<void> {
  const budget = checkpointBudgetMs(rt);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('checkpoint time budget exceeded')), budget);
  const onRunAbort = () => controller.abort(scope.signal.reason);
  scope.signal.addEventListener('abort', onRunAbort, { once: true });
  try {
    const cp = await rt.checkpoints.create({ label: 'auto-before-destructive', auto: true, runId: scope.runId, signal: controller.signal });
    emitCreated(rt, cp, scope);
  } catch (err) {
    if (scope.signal.aborted) return;
    if (controller.signal.aborted) {
      rt.log(`auto checkpoint abandoned after ${budget} ms`);
      rt.emitInRun(scope, {
        type: 'error',
        code: CHECKPOINT_ERROR_CODES.timeout,
        message: `No checkpoint for this turn: snapshotting the workspace took longer than ${budget / 1000} s, so the turn went on without one (Undo cannot restore its files). Ignoring large generated folders in .gitignore makes checkpoints faster.`,
      });
      return;
    }
    rt.log(`auto checkpoint failed: ${(err as Error).message}`);
    rt.emitInRun(scope, { type: 'info', message: `could not create a checkpoint before the first change: ${(err as Error).message}` });
  } finally {
    clearTimeout(timer);
    scope.signal.removeEventListener('abort', onRunAbort);
  }
}
