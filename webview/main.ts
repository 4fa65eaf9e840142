import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import type { HostToWebview } from '../src/shared/webviewMessages';
import { App } from './app';
import { HostBridge } from './infra/hostBridge';
import { UiStateStore } from './state/uiState';

/** Bootstrap: build the UI, listen to the host, then say `ready` (the host answers with a snapshot). */
function main(): void {
  const api = acquireVsCodeApi();
  const host = new HostBridge(api);
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  const ui = new UiStateStore(api);
  const app = new App(root, host, ui);
  // Text typed in the last moments before a reload would otherwise wait for a save timer that never fires.
  window.addEventListener('pagehide', () => ui.flush());
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as HostToWebview | undefined;
    if (message && typeof message === 'object' && typeof message.type === 'string') app.onMessage(message);
  });
  host.post({ type: 'ready' });
}

main();
