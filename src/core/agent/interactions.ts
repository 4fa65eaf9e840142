import type { AskQuestion } from '../tools/types';

interface Pending<T> {
  runId: string;
  resolve(value: T): void;
}

export type SudoAnswer = { approved: boolean; password?: string };

/**
 * Blocking prompts other than approvals: the `ask` tool's questions and sudo passwords. Each waits for its reply command
 * or for its run to be cancelled (then it resolves as skipped / denied).
 */
export class Interactions {
  private seq = 0;
  private asks = new Map<string, Pending<Record<string, string> | null>>();
  private sudos = new Map<string, Pending<SudoAnswer>>();

  ask(
    runId: string,
    signal: AbortSignal,
    emit: (requestId: string) => void,
    _questions: AskQuestion[],
  ): Promise<Record<string, string> | null> {
    return this.wait(this.asks, `ask-${++this.seq}`, runId, signal, null, emit);
  }

  sudo(runId: string, signal: AbortSignal, emit: (requestId: string) => void): Promise<SudoAnswer> {
    return this.wait(this.sudos, `sudo-${++this.seq}`, runId, signal, { approved: false }, emit);
  }

  replyAsk(requestId: string, answers: Record<string, string> | null): boolean {
    return this.settle(this.asks, requestId, answers);
  }

  replySudo(requestId: string, answer: SudoAnswer): boolean {
    return this.settle(this.sudos, requestId, answer);
  }

  get pendingAsks(): number {
    return this.asks.size;
  }

  get pendingSudos(): number {
    return this.sudos.size;
  }

  private wait<T>(
    map: Map<string, Pending<T>>,
    id: string,
    runId: string,
    signal: AbortSignal,
    onCancel: T,
    emit: (id: string) => void,
  ): Promise<T> {
    return new Promise<T>((resolve) => {
      if (signal.aborted) return resolve(onCancel);
      const abort = (): void => {
        if (map.delete(id)) resolve(onCancel);
      };
      signal.addEventListener('abort', abort, { once: true });
      map.set(id, {
        runId,
        resolve: (v) => {
          signal.removeEventListener('abort', abort);
          resolve(v);
        },
      });
      emit(id);
    });
  }

  private settle<T>(map: Map<string, Pending<T>>, id: string, value: T): boolean {
    const p = map.get(id);
    if (!p) return false;
    map.delete(id);
    p.resolve(value);
    return true;
  }
}
