// The events a core may print at any time, between any two events of a command's answer — not because of the command
// a test just sent (docs/architecture.md, "Event order"). A helper that collects "the answer to a command" (the events
// after it up to a marker: its last event, a probe's answer, `done`) leaves them out, so where one lands never changes
// what a test sees; a test that wants one waits for it by name (`waitForType`), which never filters.
// `npm run test:stress` runs the core suites with every background task's emit delayed at random
// (CATALYST_CODE_TEST_JITTER_MS), so a helper or test that takes one of these as part of an answer fails there at once.

/** Each type with why it is unsolicited: what emits it, and when. */
export const UNSOLICITED_EVENTS: Readonly<Record<string, string>> = {
  rules:
    "the first rules walk, started by init after ready without holding up commands (a big tree takes seconds), emits its files when done; a turn's or context's refresh emits it again when a file changed",
  models:
    "init answers ready after at most 1 s of model discovery (READY_DISCOVERY_BUDGET_MS); a slower discovery's list follows as models whenever it ends (also the answer to set_provider, login, logout, refresh_models: wait for it by name there)",
  approval_expired: "a pending approval's timer (15 min, CATALYST_CODE_APPROVAL_TIMEOUT_SECS in tests) fires whatever the client is doing",
};
// Not listed, though some of theirs are unsolicited too: `info` and `plugin_status` (a turn_end or session_stop hook's
// notify and status lines land anywhere after a turn's done; a tool hook's are part of its turn; a test of an after-turn
// hook waits for its text) and the deploy of a goal, which
// runs outside any command (its goal_*, work_state and worker events come in their own order, which goal tests follow).

export function isUnsolicited(event: { type: string }): boolean {
  return Object.hasOwn(UNSOLICITED_EVENTS, event.type);
}

/** `events` without the unsolicited ones: what a command's answer is made of. */
export function solicitedOnly<E extends { type: string }>(events: readonly E[]): E[] {
  return events.filter((e) => !isUnsolicited(e));
}
