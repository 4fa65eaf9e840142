/**
 * Development aid: stands in for VS Code's webview host so the bundle can run in a plain browser page. It provides
 * `acquireVsCodeApi`, records what the webview posts, and lets a driver (Playwright) send host messages.
 * Never shipped: built into a temp folder by dev/run.mjs and by test/webview/standaloneWebview.ts.
 */
import type { HostToWebview } from '../../src/shared/webviewMessages';
import { firstRunState, longReply, longState, richState, scvState } from './fixtures';

interface DevWindow {
  __posted: unknown[];
  __savedState: unknown;
  __host: { send(message: HostToWebview): void };
  __fixtures: typeof fixtures;
  acquireVsCodeApi(): unknown;
}

const fixtures = { richState, longState, firstRunState, longReply, scvState };
const w = window as unknown as DevWindow;
w.__posted = [];
w.__savedState = undefined;
w.__fixtures = fixtures;
w.__host = { send: (message) => window.postMessage(message, '*') };
w.acquireVsCodeApi = () => ({
  postMessage: (message: unknown) => w.__posted.push(message),
  getState: () => w.__savedState,
  setState: (state: unknown) => (w.__savedState = state),
});
