import type { NoticeItem, SessionState } from '../../shared/sessionState';
import { type Patch, diffState } from '../../shared/statePatch';
import type { ClientEvent } from './clientEvents';
import type { WireEvent } from './eventFields';
import { sessionReducer } from './sessionReducer';

export type StateListener = (state: SessionState, patches: Patch[]) => void;

/**
 * The session model of one core: every core event and client event goes through the reducer here, and listeners get
 * each change synchronously with its patches. Both the supervision of the core and the user's intents write to it.
 */
export class SessionStore {
  private current: SessionState;
  private readonly listeners = new Set<StateListener>();

  constructor(
    initial: SessionState,
    private readonly log: (line: string) => void,
  ) {
    this.current = initial;
  }

  get state(): SessionState {
    return this.current;
  }

  onDidChange(listener: StateListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  dispatch(e: ClientEvent | WireEvent): void {
    const prev = this.current;
    const next = sessionReducer(prev, e);
    if (next === prev) return;
    this.current = next;
    const patches = diffState(prev, next);
    for (const listener of [...this.listeners]) {
      try {
        listener(next, patches);
      } catch (err) {
        this.log(`state listener failed: ${(err as Error).message}`);
      }
    }
  }

  notice(level: NoticeItem['level'], text: string, action?: NoticeItem['action'], code?: string): void {
    this.dispatch({ type: 'client:notice', level, text, action, code });
  }

  dispose(): void {
    this.listeners.clear();
  }
}
