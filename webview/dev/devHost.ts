/**
 * The VS Code API stand-in for the webview in a plain browser page (never shipped): `acquireVsCodeApi`, with every
 * posted message recorded in `__posted` and handed to the driver's `__catalystPosted` binding when it has one, and
 * `__host.send` for the driver's host messages. Bundled by test/webview/harness/webviewServer.ts and injected with
 * Playwright's addInitScript, before the page's own (single, nonce'd) script runs.
 */
import type { HostToWebview } from '../../src/shared/webviewMessages';

interface DevWindow {
  __posted: unknown[];
  __savedState: unknown;
  __host: { send(message: HostToWebview): void };
  __catalystPosted?: (message: unknown) => void;
  acquireVsCodeApi(): unknown;
}

const w = window as unknown as DevWindow;
w.__posted = [];
w.__savedState = undefined;
w.__host = { send: (message) => window.postMessage(message, '*') };
w.acquireVsCodeApi = () => ({
  postMessage: (message: unknown) => {
    w.__posted.push(message);
    w.__catalystPosted?.(message);
  },
  getState: () => w.__savedState,
  setState: (state: unknown) => (w.__savedState = state),
});
