import type { SessionState } from '../../src/shared/sessionState';

export type StatusTone = 'ok' | 'busy' | 'warn' | 'error' | 'off';

/** The header's status dot and text: the core's state, and while it is ready, what the run is doing. */
export function statusOf(state: SessionState): { tone: StatusTone; text: string } {
  const { core, run } = state;
  switch (core.status) {
    case 'stopped':
      return { tone: 'off', text: 'Core stopped' };
    case 'starting':
      return { tone: 'busy', text: 'Starting core…' };
    case 'restarting':
      return { tone: 'warn', text: 'Restarting core…' };
    case 'crashed':
      return { tone: 'error', text: 'Core crashed' };
  }
  switch (run.status) {
    case 'running':
      return { tone: 'busy', text: 'Working…' };
    case 'waiting_approval':
      return { tone: 'warn', text: 'Waiting for approval' };
    case 'waiting_input':
      return { tone: 'warn', text: 'Waiting for your answer' };
    default:
      return { tone: 'ok', text: 'Ready' };
  }
}

export function isRunActive(state: SessionState): boolean {
  return state.run.status !== 'idle';
}
