/** Identifiers shared by the manifest (package.json `contributes`) and the code; keep them in sync. */

export const VIEW_CONTAINER_ID = 'catalystCode';
export const CHAT_VIEW_ID = 'catalystCode.chatView';
export const CHAT_PANEL_ID = 'catalystCode.chatPanel';
export const GOAL_PANEL_ID = 'catalystCode.goalControlCenter';
export const STATS_SCHEME = 'catalyst-stats';
export const OUTPUT_CHANNEL_NAME = 'Catalyst Code';

export const COMMANDS = {
  openChat: 'catalystCode.openChat',
  openChatInEditor: 'catalystCode.openChatInEditor',
  focusInput: 'catalystCode.focusInput',
  newSession: 'catalystCode.newSession',
  openSession: 'catalystCode.openSession',
  askAboutSelection: 'catalystCode.askAboutSelection',
  addFileToChat: 'catalystCode.addFileToChat',
  abort: 'catalystCode.abort',
  undo: 'catalystCode.undo',
  compact: 'catalystCode.compact',
  setApprovalMode: 'catalystCode.setApprovalMode',
  selectModel: 'catalystCode.selectModel',
  login: 'catalystCode.login',
  setWebSearchKey: 'catalystCode.setWebSearchKey',
  logout: 'catalystCode.logout',
  addCustomProvider: 'catalystCode.addCustomProvider',
  showStats: 'catalystCode.showStats',
  showUsage: 'catalystCode.showUsage',
  restartCore: 'catalystCode.restartCore',
  showLog: 'catalystCode.showLog',
  switchFolder: 'catalystCode.switchWorkspaceFolder',
  runSubagent: 'catalystCode.runSubagent',
  applySkill: 'catalystCode.applySkill',
  browseSkillMarketplace: 'catalystCode.browseSkillMarketplace',
  showMemory: 'catalystCode.showMemory',
  visionSettings: 'catalystCode.visionSettings',
} as const;

/** Goal mode's palette commands (registered by src/vscode/goal/goalCommands.ts). */
export const GOAL_COMMANDS = {
  startGoal: 'catalystCode.startGoal',
  openControlCenter: 'catalystCode.openGoalControlCenter',
  cancelGoal: 'catalystCode.cancelGoal',
} as const;

export const CONTEXT_KEYS = {
  running: 'catalystCode.running',
  awaitingApproval: 'catalystCode.awaitingApproval',
  /** The chat's core has a goal in an active phase (Cancel Goal is enabled). */
  goalActive: 'catalystCode.goalActive',
} as const;
