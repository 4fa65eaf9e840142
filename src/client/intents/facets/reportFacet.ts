import type { CommandOf } from '../../../protocol';
import type { IntentContext } from '../intentContext';

export type ReportIntents = ReturnType<typeof reportFacet>;

/** Figures the core reports on request: usage, the context window, the runtime, the provider's plan. */
export function reportFacet(ctx: IntentContext) {
  return {
    /** Asks the core for usage figures; with `report` the answer is also shown as a notice in the chat (the /stats command). */
    stats(report = true): boolean {
      if (!ctx.requireReady()) return false;
      if (report) ctx.requestReport('stats');
      return ctx.send({ type: 'stats' });
    },

    /** Asks how full the context window is; with `report` the answer is also shown as a notice (the /context command). */
    context(report = true): boolean {
      if (!ctx.requireReady()) return false;
      if (report) ctx.requestReport('context_breakdown');
      return ctx.send({ type: 'context' });
    },

    /** `runtime_status`: the core's active run, pending prompts and cancellable resources (the stats view awaits the answer). */
    runtimeStatus(): boolean {
      return ctx.sendWhenReady({ type: 'runtime_status' });
    },

    /** `usage`: the plan and rate-limit windows of the provider serving `model` (default: the last used); answered by `usage`. */
    usage(model?: string): boolean {
      // SCV reports no provider usage: nothing is sent, and the caller says so (Show Stats leaves the section out).
      if (ctx.kind === 'scv') return false;
      const cmd: CommandOf<'usage'> = { type: 'usage' };
      if (model) cmd.model = model;
      return ctx.sendWhenReady(cmd);
    },
  };
}
