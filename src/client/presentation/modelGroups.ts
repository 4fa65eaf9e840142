import type { ModelView, SessionState } from '../../shared/sessionState';

export interface ModelGroup {
  provider: string;
  models: ModelView[];
}

/** Models grouped by provider (the active provider first, then alphabetical), for the "Select Model…" picker. */
export function groupModelsByProvider(models: readonly ModelView[], activeProvider?: string): ModelGroup[] {
  const groups = new Map<string, ModelView[]>();
  for (const m of models) {
    const provider = m.provider || activeProvider || 'models';
    const list = groups.get(provider) ?? [];
    list.push(m);
    groups.set(provider, list);
  }
  return [...groups]
    .map(([provider, list]) => ({ provider, models: list }))
    .sort((a, b) => Number(b.provider === activeProvider) - Number(a.provider === activeProvider) || a.provider.localeCompare(b.provider));
}

/** A one-line description of what a model offers. */
export function describeModel(m: ModelView): string {
  const parts: string[] = [];
  if (m.contextWindow) parts.push(`${Math.round(m.contextWindow / 1000)}k context`);
  if (m.reasoning || (m.thinkingLevels?.length ?? 0) > 0) parts.push('reasoning');
  if (m.vision) parts.push('images');
  return parts.join(' · ');
}

/**
 * What "Select Model…" says when there are no models: log in when nothing is, else the logged-in provider (a keyless
 * local server, say) listed none, which logging in again would not fix.
 */
export function noModelsMessage(state: Pick<SessionState, 'anyLoggedIn' | 'provider'>): string {
  if (!state.anyLoggedIn) return 'Catalyst Code: no models yet — log in to a provider first.';
  return `Catalyst Code: ${state.provider || 'the provider'} lists no models yet — is its server running? Log In… changes the endpoint or adds a key.`;
}

/** A model in the picker: its id and the provider group it was picked from. */
export interface ModelChoice {
  model: string;
  provider?: string;
}

/** The provider to switch to (`set_provider`) before selecting `choice`, when it is not the active one. */
export function providerSwitchFor(choice: ModelChoice, activeProvider: string | undefined): string | undefined {
  return choice.provider && choice.provider !== activeProvider ? choice.provider : undefined;
}

/** Whether `choice` is the selected model: its id, served by the provider a send would name (the first that lists it). */
export function isCurrentChoice(choice: ModelChoice, models: readonly ModelView[], selected: string | undefined): boolean {
  if (choice.model !== selected) return false;
  const serving = models.find((m) => m.id === selected)?.provider;
  return !serving || !choice.provider || serving === choice.provider;
}

/** The quiet notice after `refresh_models`. */
export function modelsRefreshedText(count: number): string {
  return `Models refreshed: ${count} model${count === 1 ? '' : 's'}`;
}
