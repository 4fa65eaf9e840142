import type { ModelView, SessionState } from '../../src/shared/sessionState';

export interface ModelGroup {
  provider: string;
  models: ModelView[];
}

/**
 * Models grouped by provider: the active provider's group first (as the palette's "Select Model…"), the others in order
 * of first appearance (the host's order), models as given.
 */
export function groupModels(models: readonly ModelView[], activeProvider?: string): ModelGroup[] {
  const groups = new Map<string, ModelView[]>();
  for (const m of models) {
    const provider = m.provider || 'Other';
    const list = groups.get(provider);
    if (list) list.push(m);
    else groups.set(provider, [m]);
  }
  return [...groups]
    .map(([provider, list]) => ({ provider, models: list }))
    .sort((a, b) => Number(b.provider === activeProvider) - Number(a.provider === activeProvider));
}

export function currentModel(state: SessionState): ModelView | undefined {
  return state.models.find((m) => m.id === state.model);
}

/** The reasoning-effort levels the current model offers; empty when it has none (the picker is hidden). */
export function reasoningLevels(state: SessionState): string[] {
  return currentModel(state)?.thinkingLevels ?? [];
}

export function modelLabel(model: ModelView): string {
  return model.name && model.name !== model.id ? model.name : model.id;
}
