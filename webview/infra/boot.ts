import type { HostToWebview } from '../../src/shared/webviewMessages';
import { UiStateStore } from '../state/uiState';
import { HostBridge } from './hostBridge';

/** What a webview bundle's UI does with the host's messages. */
export interface WebviewApp {
  onMessage(message: HostToWebview): void;
}

/** A bundle's bootstrap: build its UI, listen to the host, then say `ready` (the host answers with a snapshot). */
export function bootWebview(create: (root: HTMLElement, host: HostBridge, ui: UiStateStore) => WebviewApp): void {
  const api = acquireVsCodeApi();
  const host = new HostBridge(api);
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  const ui = new UiStateStore(api);
  const app = create(root, host, ui);
  // Text typed in the last moments before a reload would otherwise wait for a save timer that never fires.
  window.addEventListener('pagehide', () => ui.flush());
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as HostToWebview | undefined;
    if (message && typeof message === 'object' && typeof message.type === 'string') app.onMessage(message);
  });
  host.post({ type: 'ready' });
}
