import type * as vscode from 'vscode';
import type { SearchProvider } from '../protocol';

/**
 * Web-search keys (Exa, Tavily) live only in VS Code's SecretStorage, one entry per provider. They reach each core with
 * `set_search_key`, which our core keeps in memory only; they are never written to a settings or config file.
 */
export class SearchKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(provider: SearchProvider): Thenable<string | undefined> {
    return this.secrets.get(secretName(provider));
  }

  store(provider: SearchProvider, key: string): Thenable<void> {
    return this.secrets.store(secretName(provider), key);
  }

  delete(provider: SearchProvider): Thenable<void> {
    return this.secrets.delete(secretName(provider));
  }
}

function secretName(provider: SearchProvider): string {
  return `catalystCode.searchKey.${provider}`;
}
