// The client layer's public API: launching and talking to a core, and the session model derived from its events.
export { resolveCoreLaunch, findOnPath, NO_CORE_FOUND, type CoreLaunch, type CoreLaunchOptions, type CoreLaunchResult } from './coreLaunch';
export { CoreConnection, MAX_EVENT_LINE_BYTES, describeExit, type Disposable, type Handshake, type WireEvent } from './coreConnection';
export { RestartPolicy, type RestartPolicyOptions } from './restartPolicy';
export { sessionReducer } from './sessionReducer';
export { isClientEvent, type ClientEvent } from './clientEvents';
export { SessionController, type CustomProviderSpec, type SessionControllerOptions, type StateListener } from './sessionController';
export { SLASH_COMMANDS, runSlashCommand, type SlashTarget } from './slashCommands';
export { newestSessionFile, sessionFileToResume } from './sessionFiles';
export { describeCommand, SECRET_COMMANDS } from './commandLog';
export { suggestPattern } from './suggestedPattern';
