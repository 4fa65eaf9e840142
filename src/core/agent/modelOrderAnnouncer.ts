import type { ToolOutcome } from '../tools/types';
import type { CallAnnouncer, ToolCall } from './toolGate';

/**
 * The calls of a read wave run at once, but their results are told in the model's order, as upstream's wave tells them:
 * each as soon as every call before it has finished, so a fast or failing call never overtakes an earlier one.
 * `started` passes straight through (the calls start in order). `calls` are the very objects the gate is given.
 */
export function inModelOrder(base: CallAnnouncer, calls: readonly ToolCall[]): CallAnnouncer {
  const held = new Map<number, ToolOutcome>();
  let next = 0;
  return {
    started: (call, args) => base.started(call, args),
    finished: (call, outcome) => {
      const index = calls.indexOf(call);
      if (index < 0) return base.finished(call, outcome);
      held.set(index, outcome);
      for (let ready = held.get(next); ready !== undefined; ready = held.get(next)) {
        held.delete(next);
        base.finished(calls[next++], ready);
      }
    },
  };
}
