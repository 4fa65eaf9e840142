import type { Command } from '../../protocol';
import type { Disposable, Handshake } from './coreConnection';
import type { WireEvent } from '../state/eventFields';

/**
 * A running core as the session sees it, whatever protocol it speaks: Catalyst v2 events out, Catalyst v2 commands in.
 * `CoreConnection` is the v2 wire itself; `ScvConnection` (src/client/scv) translates an SCV v3 server onto it.
 */
export interface CoreChannel {
  readonly pid: number | undefined;
  readonly hasExited: boolean;
  /** The process's last stderr lines (diagnostics for a failed start or a crash). */
  recentStderr(): string[];
  onEvent(listener: (e: WireEvent) => void): Disposable;
  onLog(listener: (line: string) => void): Disposable;
  onExit(listener: (code: number | null, signal: NodeJS.Signals | null) => void): Disposable;
  /** One command; false when it could not be sent (the process is gone, or the adapter refused it with an `error` event). */
  send(cmd: Command): boolean;
  /** Resolves with `ready` and `protocol_hello` (an adapter synthesizes both once its own handshake is through). */
  handshake(timeoutMs?: number): Promise<Handshake>;
  stop(graceMs?: number): Promise<void>;
  kill(): Promise<void>;
  /** Present when the server keeps an editable queue (capability `server_queue`). */
  readonly serverQueue?: ServerQueueControl;
  /** Limits the server enforces on what the client sends; the session checks them before showing a prompt. */
  readonly limits?: { maxPromptBytes?: number };
}

/**
 * The user's operations on a server-side queue. Each answers false with an `error` event (and changes nothing) when the
 * entry is unknown; a stale revision comes back from the server as a conflict, reported as an `error` with code
 * `queue_conflict` and followed by the current queue.
 */
export interface ServerQueueControl {
  edit(id: string, prompt: string): boolean;
  /** Moves `id` before `beforeId`; null moves it to the end. */
  move(id: string, beforeId: string | null): boolean;
  remove(id: string): boolean;
  pause(paused: boolean): boolean;
}
