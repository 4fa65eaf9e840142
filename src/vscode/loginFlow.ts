import * as vscode from 'vscode';
import type { ProviderPreset } from '../protocol';
import type { ApiKeyStore } from './apiKeyStore';
import type { CoreManager, FolderCore } from './coreManager';
import { whenCoreReady } from './coreWaits';
import { OauthLoginFlow } from './oauthLoginFlow';
import { loginMethods, type LoginMethod } from '../client/providers/oauthLogin';
import {
  configureProviders,
  providersForPreset,
  validateBaseUrl,
  validateProviderName,
  type ProviderSetup,
} from '../client/providers/providerSetup';

const CUSTOM_OPENAI = 'Custom OpenAI-compatible endpoint…';
const CUSTOM_ANTHROPIC = 'Custom Anthropic endpoint…';

type LoginChoice = vscode.QuickPickItem & { preset?: ProviderPreset; custom?: 'openai' | 'anthropic' };

/**
 * "Log In…", "Log Out" and "Add Custom Provider…". Providers are configured with `add_custom_provider` (no key) and the
 * key is kept in SecretStorage and given to the core with `set_key`, so it is never written to the core's config.json,
 * a log, the chat or an error message. A preset a plugin serves with OAuth (supportsOauth) logs in through
 * OauthLoginFlow instead: no key is asked for; the plugin keeps its token.
 */
export class LoginFlow implements vscode.Disposable {
  private readonly oauth: OauthLoginFlow;

  constructor(
    private readonly cores: CoreManager,
    private readonly keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.oauth = new OauthLoginFlow(cores, log);
  }

  dispose(): void {
    this.oauth.dispose();
  }

  async login(): Promise<void> {
    const core = await this.readyCore();
    if (!core) return;
    const choice = await vscode.window.showQuickPick(loginChoices(core.catalog.presets), {
      title: 'Catalyst Code: Log In',
      placeHolder: 'Choose a provider',
      ignoreFocusOut: true,
    });
    if (!choice) return;
    if (choice.custom) return this.addCustom(choice.custom, core);
    if (choice.preset) return this.loginPreset(choice.preset, core);
  }

  async addCustomProvider(): Promise<void> {
    const core = await this.readyCore();
    if (!core) return;
    const kind = await vscode.window.showQuickPick(
      [
        {
          label: CUSTOM_OPENAI,
          endpoint: 'openai' as const,
          detail: 'Ollama, LM Studio, llama.cpp, vLLM, DeepSeek, any /v1/chat/completions server',
        },
        { label: CUSTOM_ANTHROPIC, endpoint: 'anthropic' as const, detail: "Anthropic's Messages API or a compatible gateway" },
      ],
      { title: 'Catalyst Code: Add Custom Provider', ignoreFocusOut: true },
    );
    if (kind) await this.addCustom(kind.endpoint, core);
  }

  async logout(): Promise<void> {
    const core = await this.readyCore();
    if (!core) return;
    const providers = core.catalog.providers;
    if (providers.length === 0) {
      void vscode.window.showInformationMessage('Catalyst Code: no provider is configured.');
      return;
    }
    const picked = await vscode.window.showQuickPick(providers, {
      title: 'Catalyst Code: Log Out',
      placeHolder: 'Forget the key of which provider?',
    });
    if (!picked) return;
    const family = core.catalog.family(picked);
    await Promise.all(family.map((name) => this.keys.delete(name)));
    for (const c of this.cores.all()) if (c.catalog.providers.includes(picked)) await c.session.logout(picked);
    this.log.info(`logged out of ${picked}; its stored key was deleted`);
  }

  private async loginPreset(preset: ProviderPreset, core: FolderCore): Promise<void> {
    const methods = loginMethods(preset);
    const method = methods.length === 1 ? methods[0] : await pickMethod(preset);
    if (method === undefined) return;
    if (method === 'oauth') return this.oauth.start(core, preset);
    const key = await askKey(`API key for ${preset.label}`, true, preset.description);
    if (key === undefined) return;
    await this.configure(providersForPreset(preset), key, core);
  }

  private async addCustom(kind: 'openai' | 'anthropic', core: FolderCore): Promise<void> {
    const title = kind === 'openai' ? 'Custom OpenAI-compatible endpoint' : 'Custom Anthropic endpoint';
    const presetIds = core.catalog.presets.map((p) => p.id);
    const name = await vscode.window.showInputBox({
      title: `${title} (1/3)`,
      prompt: 'A short name for this provider',
      placeHolder: kind === 'openai' ? 'ollama' : 'anthropic',
      ignoreFocusOut: true,
      validateInput: (v) => validateProviderName(v, presetIds),
    });
    if (name === undefined) return;
    const baseUrl = await vscode.window.showInputBox({
      title: `${title} (2/3)`,
      prompt: 'Base URL of the API (the part before /chat/completions or /messages)',
      placeHolder: kind === 'openai' ? 'http://127.0.0.1:11434/v1' : 'https://api.anthropic.com/v1',
      ignoreFocusOut: true,
      validateInput: validateBaseUrl,
    });
    if (baseUrl === undefined) return;
    const key = await askKey(`${title} (3/3)`, false, 'API key — leave empty if the endpoint needs none (e.g. a local Ollama)');
    if (key === undefined) return;
    await this.configure([{ name: name.trim(), baseUrl: baseUrl.trim(), kind }], key, core);
  }

  /** Configures the providers on every running core (they share config.json) and hands them the key. */
  private async configure(setups: ProviderSetup[], key: string, active: FolderCore): Promise<void> {
    if (key) for (const s of setups) await this.keys.store(s.name, key);
    else for (const s of setups) await this.keys.delete(s.name);
    const targets = [active, ...this.cores.all().filter((c) => c !== active)];
    for (const core of targets) await configureProviders(core.session, setups, key);
    this.log.info(
      `configured provider ${setups.map((s) => s.name).join(', ')}${key ? ' with a key from SecretStorage' : ' without a key'}`,
    );
  }

  private async readyCore(): Promise<FolderCore | undefined> {
    const core = this.cores.ensureActive();
    if (!core) {
      void vscode.window.showInformationMessage('Catalyst Code: open a folder first; the chat works inside a workspace folder.');
      return undefined;
    }
    if (await whenCoreReady(core)) return core;
    const choice = await vscode.window.showErrorMessage(
      'Catalyst Code: the core is not running, so no provider can be configured.',
      'Show Core Log',
      'Restart Core',
    );
    if (choice === 'Show Core Log') void vscode.commands.executeCommand('catalystCode.showLog');
    if (choice === 'Restart Core') void vscode.commands.executeCommand('catalystCode.restartCore');
    return undefined;
  }
}

function loginChoices(presets: ProviderPreset[]): LoginChoice[] {
  const items: LoginChoice[] = presets.map((preset) => ({
    label: preset.label || preset.id,
    description: [preset.loggedIn ? 'logged in' : preset.id, preset.supportsOauth ? 'OAuth' : ''].filter(Boolean).join(' · '),
    detail: preset.description,
    preset,
  }));
  if (items.length > 0) items.push({ label: 'Other endpoints', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: CUSTOM_OPENAI, custom: 'openai', detail: 'Ollama, LM Studio, llama.cpp, vLLM, or any OpenAI-compatible server' });
  items.push({ label: CUSTOM_ANTHROPIC, custom: 'anthropic', detail: "Anthropic's Messages API or a compatible gateway" });
  return items;
}

function pickMethod(preset: ProviderPreset): Thenable<LoginMethod | undefined> {
  return vscode.window
    .showQuickPick(
      [
        { label: 'Log in with OAuth', detail: 'Opens the provider’s login page in the browser', method: 'oauth' as const },
        { label: 'Paste an API key', detail: 'Kept in VS Code’s secret storage', method: 'key' as const },
      ],
      { title: `Catalyst Code: Log In to ${preset.label || preset.id}`, ignoreFocusOut: true },
    )
    .then((picked) => picked?.method);
}

/** A password box; undefined when cancelled. Required keys can't be empty. */
function askKey(title: string, required: boolean, prompt: string): Thenable<string | undefined> {
  return vscode.window
    .showInputBox({
      title,
      prompt,
      password: true,
      ignoreFocusOut: true,
      placeHolder: required ? 'paste the API key' : 'optional',
      validateInput: (v) => (required && !v.trim() ? 'Paste the API key (it is kept in VS Code’s secret storage).' : undefined),
    })
    .then((v) => v?.trim());
}
