import { providerSwitchFor, type ModelChoice } from '../presentation/modelGroups';
import type { ChatSession } from './chatSession';

export interface ModelSwitchDeps {
  session: Pick<ChatSession, 'state' | 'setProvider' | 'setModel'>;
  /** Called before `set_provider` is sent: resolves once the core lists models next (or gives up). */
  modelsListed(): Promise<unknown>;
  /** Remembers the picked model for the next session. */
  remember(model: string): void;
}

/**
 * Selects a model picked from a provider group (the palette's "Select Model…" and the chat header's select): another
 * provider than the active one is switched to first (`set_provider`), and the model is selected only once the core has
 * listed that provider's models first — only then does a send name that provider. False when a command was refused.
 */
export async function selectModelChoice(deps: ModelSwitchDeps, choice: ModelChoice): Promise<boolean> {
  const switchTo = providerSwitchFor(choice, deps.session.state.provider);
  if (switchTo) {
    const listed = deps.modelsListed();
    if ((await deps.session.setProvider(switchTo)) === false) return false;
    await listed;
  }
  deps.remember(choice.model);
  return (await deps.session.setModel(choice.model)) !== false;
}
