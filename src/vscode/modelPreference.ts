import * as vscode from 'vscode';

const LAST_MODEL_KEY = 'catalystCode.lastModel';

/**
 * The model a new core preselects: the one the user last picked in this workspace, else the `catalystCode.defaultModel`
 * setting (the controller keeps it only if the core lists it, otherwise it takes the first listed model).
 */
export class ModelPreference {
  constructor(private readonly memento: vscode.Memento) {}

  /** The user picked a model (chat picker or "Select Model…"). */
  remember(model: string): void {
    void this.memento.update(LAST_MODEL_KEY, model);
  }

  preferred(configuredDefault: string): string | undefined {
    return this.memento.get<string>(LAST_MODEL_KEY) || configuredDefault || undefined;
  }
}
