// Notifications about one folder's core when several folders have cores: they say which folder, and a chat on screen
// counts as showing a core's card only when that core is the chat's. No `vscode` here, so it is unit-tested.

/** How a notification about one core begins: its folder is named only when more than one folder has a core. */
export function noticePrefix(folderName: string, coreCount: number): string {
  return coreCount > 1 ? `Catalyst Code [${folderName}]: ` : 'Catalyst Code: ';
}

/** The error toast for a core's `plugin_error`, or undefined when the event carries no message. */
export function pluginErrorToast(event: Readonly<Record<string, unknown>>, prefix: string): string | undefined {
  if (typeof event.message !== 'string' || !event.message.trim()) return undefined;
  const plugin = typeof event.name === 'string' && event.name.trim() ? `${event.name}: ` : '';
  return `${prefix}plugin ${plugin}${event.message}`;
}

/**
 * A subagent's question pops up as a notification unless a chat on screen shows its card, which it does only when the
 * core that asks is the chat's own (the active folder's): an inactive folder's question is out of sight.
 */
export function intercomNeedsToast(chatVisible: boolean, askingCoreIsShown: boolean): boolean {
  return !(chatVisible && askingCoreIsShown);
}
