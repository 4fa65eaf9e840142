import * as vscode from 'vscode';
import type { CoreEvent, CoreManager, FolderCore } from './coreManager';

/** Resolves with the core's next event of `type` (or one `accept`ed), or undefined after the timeout. */
export function nextCoreEvent(
  cores: CoreManager,
  core: FolderCore,
  type: string,
  timeoutMs: number,
  accept: (e: CoreEvent) => boolean = () => true,
): Promise<CoreEvent | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const sub = cores.onCoreEvent(({ core: from, event }) => from === core && event.type === type && accept(event) && done(event));
    function done(e: CoreEvent | undefined): void {
      clearTimeout(timer);
      sub.dispose();
      resolve(e);
    }
  });
}

/** Waits (with a progress notification) until the core has finished its handshake; false if it failed or timed out. */
export async function whenCoreReady(core: FolderCore, timeoutMs = 30_000): Promise<boolean> {
  if (core.session.state.core.status === 'ready') return true;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Catalyst Code: starting the core…' },
    () =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => done(false), timeoutMs);
        const sub = core.session.onDidChange((state) => {
          if (state.core.status === 'ready') done(true);
          else if (state.core.status === 'crashed' || state.core.status === 'stopped') done(false);
        });
        function done(ok: boolean): void {
          clearTimeout(timer);
          sub.dispose();
          resolve(ok);
        }
      }),
  );
}
