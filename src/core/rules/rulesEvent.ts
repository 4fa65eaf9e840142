/** The `rules` event (ours): the files in effect, sent on `init` and whenever a refresh changes what it shows. */
import type { SessionEvent, SessionEventOf } from '../runtime/eventSink';
import type { ProjectRules, RulesSnapshot } from './projectRules';

export function rulesEvent(snapshot: RulesSnapshot): SessionEventOf<'rules'> {
  return {
    type: 'rules',
    files: snapshot.files,
    skipped: snapshot.skipped,
    disabled: snapshot.disabled,
    walk_limited: snapshot.walkLimited,
  };
}

/** Re-reads the rules files (stat-based) and emits `rules` if what it shows changed; returns the snapshot in effect. */
export async function refreshRules(session: { rules: ProjectRules; emit(event: SessionEvent): void }): Promise<RulesSnapshot> {
  const { snapshot, changed } = await session.rules.refresh();
  if (changed) session.emit(rulesEvent(snapshot));
  return snapshot;
}
