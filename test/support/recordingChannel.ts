import type { Command } from '../../src/protocol';
import type { ClientEvent } from '../../src/client/state/clientEvents';
import type { CoreChannel } from '../../src/client/channel/coreChannel';
import type { Disposable, Handshake } from '../../src/client/channel/coreConnection';
import type { WireEvent } from '../../src/client/state/eventFields';

type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

/**
 * A CoreChannel without a process, for SessionController tests: it records what the controller sends, and the test
 * plays the core's events (`emit`) and its end (`exit`). A subclass answers the handshake as the core it stands for.
 */
export abstract class RecordingChannel implements CoreChannel {
  abstract readonly pid: number;
  hasExited = false;
  readonly sent: Command[] = [];
  private readonly events = new Set<(e: WireEvent) => void>();
  private readonly exits = new Set<ExitListener>();

  abstract handshake(): Promise<Handshake>;

  recentStderr(): string[] {
    return [];
  }
  onEvent(listener: (e: WireEvent) => void): Disposable {
    this.events.add(listener);
    return { dispose: () => void this.events.delete(listener) };
  }
  onLog(): Disposable {
    return { dispose() {} };
  }
  onExit(listener: ExitListener): Disposable {
    this.exits.add(listener);
    return { dispose: () => void this.exits.delete(listener) };
  }
  send(cmd: Command): boolean {
    this.sent.push(cmd);
    return true;
  }
  async stop(): Promise<void> {
    this.exit(0, null);
  }
  async kill(): Promise<void> {
    this.exit(null, 'SIGKILL');
  }

  /** The core sends `e` (a client event too, for what an adapter makes up). */
  emit(e: WireEvent | ClientEvent): void {
    for (const listener of [...this.events]) listener(e as WireEvent);
  }
  /** The process ends (once; later calls do nothing). */
  exit(code: number | null = 0, signal: NodeJS.Signals | null = null): void {
    if (this.hasExited) return;
    this.hasExited = true;
    for (const listener of [...this.exits]) listener(code, signal);
  }
}
