import type * as vscode from 'vscode';
import { secretKeyFor } from '../client/providers/providerSetup';

/**
 * API keys live only in VS Code's SecretStorage, one entry per provider. They go to a core with `set_key` (runtime
 * only), never with `login` or `add_custom_provider`, which would persist them in the core's config.json.
 */
export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(provider: string): Thenable<string | undefined> {
    return this.secrets.get(secretKeyFor(provider));
  }

  store(provider: string, key: string): Thenable<void> {
    return this.secrets.store(secretKeyFor(provider), key);
  }

  delete(provider: string): Thenable<void> {
    return this.secrets.delete(secretKeyFor(provider));
  }

  /** The stored keys of these providers, skipping those without one. */
  async keysFor(providers: readonly string[]): Promise<[string, string][]> {
    const found: [string, string][] = [];
    for (const provider of providers) {
      const key = await this.get(provider);
      if (key) found.push([provider, key]);
    }
    return found;
  }
}
