// Matching the core's answers to checkpoint requests. The wire has no request ids: an answer names its checkpoint
// (and file), and an error names neither — but a core handles commands one at a time, in order, so a checkpoint error
// belongs to the oldest request still waiting.
import type { EventOf } from '../../protocol';
import { type Fields, type Untrusted, str } from '../state/eventFields';
import {
  type CheckpointChanges,
  type CheckpointEntry,
  type CheckpointFileContent,
  type CheckpointRestored,
  parseCheckpointChanges,
  parseCheckpointDeleted,
  parseCheckpointEntry,
  parseCheckpointFile,
  parseCheckpointList,
  parseCheckpointRestored,
} from './checkpointEvents';

export interface CheckpointAnswers {
  list: CheckpointEntry[];
  changes: CheckpointChanges;
  file: CheckpointFileContent;
  restore: CheckpointRestored;
  delete: string;
  create: CheckpointEntry;
}
export type CheckpointRequestKind = keyof CheckpointAnswers;

/** The command each request kind sends (how an `unsupported` error names it). */
export const REQUEST_COMMANDS: Record<CheckpointRequestKind, string> = {
  list: 'list_checkpoints',
  changes: 'checkpoint_changes',
  file: 'checkpoint_file',
  restore: 'restore_checkpoint',
  delete: 'delete_checkpoint',
  create: 'create_checkpoint',
};

/** Error codes that answer a checkpoint command (ours, and what older embedded cores used). */
const CHECKPOINT_ERROR_CODES = new Set([
  'checkpoint_not_found',
  'not_found',
  'invalid_path',
  'busy',
  'checkpoint_restore',
  'checkpoint_timeout',
  'checkpoint_failed',
]);

export class CheckpointRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'CheckpointRequestError';
  }
}

/** Which request an answer event settles, with its parsed value. */
export function answerOf(
  e: Fields,
): { kind: CheckpointRequestKind; key: string; value: CheckpointAnswers[CheckpointRequestKind] } | undefined {
  switch (e.type) {
    case 'checkpoints': {
      const list = parseCheckpointList(e);
      return list && { kind: 'list', key: '', value: list };
    }
    case 'checkpoint_changes': {
      const changes = parseCheckpointChanges(e);
      return changes && { kind: 'changes', key: changes.id, value: changes };
    }
    case 'checkpoint_file': {
      const file = parseCheckpointFile(e);
      return file && { kind: 'file', key: fileKey(file.id, file.path), value: file };
    }
    case 'checkpoint_restored': {
      const restored = parseCheckpointRestored(e);
      return restored && { kind: 'restore', key: restored.id, value: restored };
    }
    case 'checkpoint_deleted': {
      const id = parseCheckpointDeleted(e);
      return id ? { kind: 'delete', key: id, value: id } : undefined;
    }
    case 'checkpoint_created': {
      // Only a manual checkpoint answers create_checkpoint; an automatic one belongs to a run.
      const entry = e.auto === true ? undefined : parseCheckpointEntry(e);
      return entry && { kind: 'create', key: '', value: entry };
    }
    default:
      return undefined;
  }
}

/** Which request kind an `error` event fails: `undefined` for an error about something else. */
export function failedKindOf(e: Fields, waiting: readonly CheckpointRequestKind[]): CheckpointRequestKind | 'oldest' | undefined {
  if (e.type !== 'error') return undefined;
  const code = str(e.code);
  if (code === 'unsupported') {
    const message = str(e.message) ?? '';
    return waiting.find((k) => message.includes(REQUEST_COMMANDS[k]));
  }
  return code && CHECKPOINT_ERROR_CODES.has(code) ? 'oldest' : undefined;
}

export function fileKey(id: string, path: string): string {
  return `${id}\u0000${path}`;
}

interface Waiter {
  kind: CheckpointRequestKind;
  key: string;
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Requests waiting for the core's answer, in the order they were sent. `observe` every event of the core; an answer
 * settles every waiter for the same (kind, key); an error the oldest request about the checkpoint (and file) it names,
 * else the oldest of all — or, for `unsupported`, the one whose command it names.
 */
export class CheckpointRequests {
  private readonly waiters: Waiter[] = [];

  get pending(): number {
    return this.waiters.length;
  }

  /** Call right before sending the command; rejects after `timeoutMs` or on `cancelAll`. */
  expect<K extends CheckpointRequestKind>(kind: K, key: string, timeoutMs: number): Promise<CheckpointAnswers[K]> {
    return new Promise<CheckpointAnswers[K]>((resolve, reject) => {
      const waiter: Waiter = {
        kind,
        key,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: setTimeout(() => {
          this.drop(waiter);
          reject(
            new CheckpointRequestError(
              `the core did not answer ${REQUEST_COMMANDS[kind]} within ${Math.round(timeoutMs / 1000)} s`,
              'timeout',
            ),
          );
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * `expect` + send in one: `send` writes the command and returns false when it could not (the core is not running,
   * or the controller refused it) — the promise then rejects at once instead of waiting for the timeout.
   */
  request<K extends CheckpointRequestKind>(kind: K, key: string, timeoutMs: number, send: () => unknown): Promise<CheckpointAnswers[K]> {
    const answer = this.expect(kind, key, timeoutMs);
    const waiter = this.waiters[this.waiters.length - 1];
    let sent: unknown;
    try {
      sent = send();
    } catch {
      sent = false;
    }
    if (sent === false) {
      this.drop(waiter);
      waiter.reject(new CheckpointRequestError(`${REQUEST_COMMANDS[kind]} was not sent: the core is not ready or refused it`, 'not_sent'));
    }
    return answer;
  }

  /** Returns true when the event settled at least one request. */
  observe(e: Fields): boolean {
    const answer = answerOf(e);
    if (answer) {
      const matched = this.waiters.filter((w) => w.kind === answer.kind && w.key === answer.key);
      for (const w of matched) {
        this.drop(w);
        w.resolve(answer.value);
      }
      return matched.length > 0;
    }
    const failed = failedKindOf(
      e,
      this.waiters.map((w) => w.kind),
    );
    if (!failed) return false;
    const waiter = failed === 'oldest' ? (this.waiterNamedBy(e) ?? this.waiters[0]) : this.waiters.find((w) => w.kind === failed);
    if (!waiter) return false;
    this.drop(waiter);
    waiter.reject(new CheckpointRequestError(str(e.message) || `the core refused ${REQUEST_COMMANDS[waiter.kind]}`, str(e.code)));
    return true;
  }

  /** The core stopped or restarted: nothing in flight will be answered. */
  cancelAll(reason: string): void {
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new CheckpointRequestError(reason, 'cancelled'));
    }
  }

  /** Our core's checkpoint errors name the checkpoint (and file): the oldest request about that one. */
  private waiterNamedBy(e: Untrusted<EventOf<'error'>>): Waiter | undefined {
    const id = str(e.id);
    if (!id) return undefined;
    const path = str(e.path);
    return this.waiters.find((w) => w.key === id || (path !== undefined ? w.key === fileKey(id, path) : w.key.startsWith(fileKey(id, ''))));
  }

  private drop(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
  }
}
