import type { ProviderPreset } from '../../protocol';

/**
 * What a core said about providers (not part of the chat's SessionState): the configured provider names and the
 * presets, from `ready`, `provider_presets`, `provider_changed` and `models_refreshed`. The login flow and the key
 * push after `ready` read it.
 */
export class ProviderCatalog {
  private names = new Set<string>();
  private presetList: ProviderPreset[] = [];

  get providers(): string[] {
    return [...this.names];
  }

  get presets(): ProviderPreset[] {
    return this.presetList;
  }

  /** Feeds one raw core event. */
  observe(e: { type: string; [field: string]: unknown }): void {
    switch (e.type) {
      case 'ready':
        this.names = new Set(strings(e.providers));
        if (typeof e.provider === 'string' && e.provider) this.names.add(e.provider);
        this.presetList = presets(e.providerPresets ?? e.provider_presets);
        return;
      case 'provider_presets':
        this.presetList = presets(e.presets);
        return;
      case 'provider_changed':
        if (typeof e.provider === 'string' && e.provider) this.names.add(e.provider);
        return;
      case 'models_refreshed':
        if (e.providers && typeof e.providers === 'object') for (const name of Object.keys(e.providers)) this.names.add(name);
        return;
      default:
        return;
    }
  }

  /** A provider and the ones a preset expanded into (`opencode-go` → `opencode-go-anthropic`), as the core's logout does. */
  family(name: string): string[] {
    return this.providers.filter((n) => n === name || n.startsWith(`${name}-`));
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0) : [];
}

function presets(v: unknown): ProviderPreset[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (p): p is ProviderPreset => typeof p === 'object' && p !== null && typeof p.id === 'string' && typeof p.base_url === 'string',
  );
}
