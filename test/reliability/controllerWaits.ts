// Waiting on a SessionController in process-level tests: for a state, or for an event, with the log tail on timeout.
import type { WireEvent } from '../../src/client/state/eventFields';
import type { SessionController } from '../../src/client/intents/sessionController';
import type { SessionState } from '../../src/shared/sessionState';

function timeoutError(what: string, controller: SessionController, logs: readonly string[]): Error {
  const { run, core } = controller.state;
  return new Error(
    `timed out waiting for ${what}; run ${JSON.stringify(run)}, core ${JSON.stringify(core)}\nlog tail:\n${logs.slice(-15).join('\n')}`,
  );
}

/** Resolves with the first state (the current one included) that satisfies `pred`. */
export function waitForState(
  controller: SessionController,
  logs: readonly string[],
  pred: (s: SessionState) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<SessionState> {
  return new Promise((resolve, reject) => {
    if (pred(controller.state)) return resolve(controller.state);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(timeoutError(what, controller, logs));
    }, timeoutMs);
    const sub = controller.onDidChange((s) => {
      if (!pred(s)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(s);
    });
  });
}

/** Resolves with the next core event that satisfies `pred` (register before causing it). */
export function waitForEvent(
  controller: SessionController,
  logs: readonly string[],
  pred: (e: WireEvent) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<WireEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(timeoutError(what, controller, logs));
    }, timeoutMs);
    const sub = controller.onEvent((e) => {
      if (!pred(e)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(e);
    });
  });
}
