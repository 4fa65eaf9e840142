import * as vscode from 'vscode';
import { oauthOutcome, pendingRestored, readOauthPrompt, type OauthPromptView } from '../client/providers/oauthLogin';
import type { CoreManager, FolderCore } from './coreManager';

/**
 * Plugin OAuth log-in (issue #17 UI-4). The core runs with CATALYST_CODE_NO_BROWSER=1 (as upstream's web host), so it
 * never opens a browser itself: its `oauth_prompt` is opened here with `vscode.env.openExternal` (which works from a
 * remote window too), a device code is shown and copyable, and a flow that needs a pasted code gets an input box that
 * sends `oauth_code`. The outcome of a login started here is shown as a notification; the chat has the texts too.
 */
export class OauthLoginFlow implements vscode.Disposable {
  /** Folder uri → the label of the login started from Log In… there. */
  private readonly started = new Map<string, string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    cores: CoreManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscription = cores.onCoreEvent(({ core, event }) => {
      if (event.type === 'oauth_prompt') void this.onPrompt(core, event);
      const outcome = oauthOutcome(event);
      const key = core.folder.uri.toString();
      if (!outcome || !this.started.has(key)) return;
      if (outcome.ok) {
        this.started.delete(key);
        void vscode.window.showInformationMessage(`Catalyst Code: ${outcome.message}`);
      } else if (pendingRestored(outcome)) {
        void this.retryCode(core, outcome.message);
      } else {
        this.started.delete(key);
        void vscode.window.showErrorMessage(`Catalyst Code: ${outcome.message}`);
      }
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  start(core: FolderCore, preset: { id: string; label: string }): void {
    if (!core.session.loginOauth(preset.id)) return;
    this.started.set(core.folder.uri.toString(), preset.label || preset.id);
    this.log.info(`OAuth login for ${preset.id} started`);
  }

  private async onPrompt(core: FolderCore, event: { [field: string]: unknown }): Promise<void> {
    const read = readOauthPrompt(event);
    if ('refused' in read) {
      this.log.warn(read.refused);
      void vscode.window.showErrorMessage(`Catalyst Code: ${read.refused}`);
      return;
    }
    const { prompt } = read;
    // Opened at once only for a login the user just started here; any other prompt waits for a click.
    const startedHere = this.started.has(core.folder.uri.toString());
    if (prompt.code || !startedHere) await this.offer(prompt);
    else await this.open(prompt.url);
    if (prompt.needsCode) await this.askCode(core, prompt.message);
  }

  /** A device code must be at hand before the page asks for it: copy it, then open the page. */
  private async offer(prompt: OauthPromptView): Promise<void> {
    const copyAndOpen = 'Copy Code and Open URL';
    const choice = prompt.code
      ? await vscode.window.showInformationMessage(
          `Catalyst Code: ${prompt.message} Code: ${prompt.code}`,
          copyAndOpen,
          'Open URL',
          'Copy Code',
        )
      : await vscode.window.showInformationMessage(`Catalyst Code: ${prompt.message}`, 'Open URL');
    if (prompt.code && (choice === copyAndOpen || choice === 'Copy Code')) await vscode.env.clipboard.writeText(prompt.code);
    if (choice === copyAndOpen || choice === 'Open URL') await this.open(prompt.url);
  }

  private async open(url: string): Promise<void> {
    const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
    if (!opened) void vscode.window.showWarningMessage(`Catalyst Code: open this URL to log in: ${url}`);
  }

  private async askCode(core: FolderCore, message: string): Promise<void> {
    const code = await vscode.window.showInputBox({
      title: 'Catalyst Code: OAuth Code',
      prompt: message,
      placeHolder: 'paste the code (or the URL the login page redirected to)',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Paste the code the login page showed.'),
    });
    if (code === undefined) {
      this.started.delete(core.folder.uri.toString());
      return;
    }
    core.session.oauthCode(code);
  }

  private async retryCode(core: FolderCore, message: string): Promise<void> {
    const again = 'Enter Code Again';
    if ((await vscode.window.showErrorMessage(`Catalyst Code: ${message}`, again)) === again) await this.askCode(core, message);
    else this.started.delete(core.folder.uri.toString());
  }
}
