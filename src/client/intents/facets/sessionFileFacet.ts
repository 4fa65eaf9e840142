import { timestampedSessionName } from '../../../protocol/sessionLayout';
import { UI_CAPABILITIES } from '../../../shared/sessionState';
import type { IntentContext } from '../intentContext';

export type SessionFileIntents = ReturnType<typeof sessionFileFacet>;

/** The workspace's session files: a new one, switching, renaming, pinning, deleting, listing. */
export function sessionFileFacet(ctx: IntentContext) {
  return {
    /** A core without sessions (SCV) starts over by clearing its one conversation instead. */
    newSession(): boolean {
      if (!ctx.requireReady()) return false;
      if (!ctx.can(UI_CAPABILITIES.sessions)) return ctx.send({ type: 'clear' });
      return ctx.send({ type: 'new_session', path: timestampedSessionName() });
    },

    loadSession(path: string): boolean {
      if (typeof path !== 'string' || !path) return ctx.refuse('No session was given.');
      return ctx.sendWhenReady({ type: 'load_session', path });
    },

    renameSession(path: string, title: string): boolean {
      return ctx.sendWhenReady({ type: 'rename_session', path, title: String(title).trim().slice(0, 200) });
    },

    pinSession(path: string, pinned: boolean): boolean {
      return ctx.sendWhenReady({ type: 'pin_session', path, pinned });
    },

    deleteSession(path: string): boolean {
      if (path === ctx.core.sessionFile) return ctx.refuse('This is the open session; switch to another one before deleting it.');
      return ctx.sendWhenReady({ type: 'delete_session', path });
    },

    listSessions(): boolean {
      return ctx.sendIfAnnounced(UI_CAPABILITIES.sessions, 'sessions', { type: 'list_sessions' });
    },
  };
}
