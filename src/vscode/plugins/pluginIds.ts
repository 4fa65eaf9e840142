/** The Plugins view and its commands (registered by ./pluginCommands.ts); package.json lists the same ids. */
export const PLUGINS_VIEW_ID = 'catalystCode.plugins';

export const PLUGIN_COMMANDS = {
  install: 'catalystCode.plugins.install',
  reload: 'catalystCode.plugins.reload',
  manageTrust: 'catalystCode.plugins.manageTrust',
  enable: 'catalystCode.plugins.enable',
  disable: 'catalystCode.plugins.disable',
  remove: 'catalystCode.plugins.remove',
} as const;

/** The tree items' contextValue: the menus offer Enable on a disabled plugin and Disable on an enabled one. */
export const PLUGIN_ITEM_CONTEXT = { enabled: 'catalystPlugin.enabled', disabled: 'catalystPlugin.disabled' } as const;
