import type { IntentContext } from '../intentContext';

export type ModelIntents = ReturnType<typeof modelFacet>;

/** The model the next turn runs on, and its reasoning effort: the client's choice, sent with each prompt. */
export function modelFacet(ctx: IntentContext) {
  return {
    setModel(model: string): boolean {
      if (!ctx.state.models.some((m) => m.id === model)) return ctx.refuse(`Unknown model: ${model}. Pick one from the model list.`);
      ctx.dispatch({ type: 'client:model_selected', model });
      return true;
    },

    setReasoning(effort: string): boolean {
      const value = typeof effort === 'string' ? effort.trim() : '';
      if (!value || value.length > 50) return ctx.refuse('Give a reasoning effort such as low, medium or high.');
      const levels = ctx.state.models.find((m) => m.id === ctx.state.model)?.thinkingLevels;
      if (levels?.length && !levels.includes(value)) return ctx.refuse(`This model's reasoning efforts are: ${levels.join(', ')}.`);
      ctx.dispatch({ type: 'client:reasoning_selected', effort: value });
      return true;
    },
  };
}
