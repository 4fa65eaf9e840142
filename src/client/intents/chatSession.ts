import type { SessionController } from './sessionController';
import type { SessionIntents } from './sessionIntents';

/**
 * The session as the VS Code glue uses it: the controller's lifecycle and every intent facet. Derived, so no signature
 * is restated here, and structural (no private members), so the glue states its dependency in one place.
 */
export type ChatSession = SessionIntents &
  Pick<SessionController, 'state' | 'start' | 'stop' | 'restart' | 'dispose' | 'onDidChange' | 'onEvent' | 'capabilities' | 'runSlash'>;
