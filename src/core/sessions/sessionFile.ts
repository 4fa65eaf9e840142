export type { LoadedSession, RunRecord, RunState, SessionMessage } from './sessionTypes';
export { SESSION_HEADER_LINE, SESSION_VERSION } from './sessionTypes';
export { loadSessionFile } from './sessionFileLoad';
export { SessionWriter, type SessionWriterOptions } from './sessionWriter';
