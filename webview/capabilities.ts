import { UI_CAPABILITIES, type SessionState } from '../src/shared/sessionState';

type UiCapability = (typeof UI_CAPABILITIES)[keyof typeof UI_CAPABILITIES];

/** Part of wire protocol v2 itself; only an SCV core (protocol v3 through the adapter) can lack them. */
const INHERENT_IN_V2: ReadonlySet<string> = new Set([UI_CAPABILITIES.steer, UI_CAPABILITIES.thinking, UI_CAPABILITIES.sessions, UI_CAPABILITIES.undo]);

/** Whether the core can do `capability`: features a core lacks are hidden, never faked. */
export function supports(state: SessionState, capability: UiCapability): boolean {
  if (state.core.capabilities.includes(capability)) return true;
  return INHERENT_IN_V2.has(capability) && state.core.kind !== 'scv';
}
