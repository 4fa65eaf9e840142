import { validateWebviewMessage, type WebviewToHost } from '../../src/shared/webviewMessages';

/** What `acquireVsCodeApi()` returns inside a VS Code webview. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

/** The webview's only way to talk to the host: every message is checked against the contract the host enforces. */
export class HostBridge {
  constructor(private readonly api: VsCodeApi) {}

  post(message: WebviewToHost): void {
    if (!validateWebviewMessage(message)) {
      console.warn(`[catalyst] not sent, fails validation: ${message.type}`);
      return;
    }
    this.api.postMessage(message);
  }
}
