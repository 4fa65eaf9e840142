import { type CoreKind, type SessionState, UI_CAPABILITIES } from './sessionState';

export type UiCapability = (typeof UI_CAPABILITIES)[keyof typeof UI_CAPABILITIES];

/** Part of wire protocol v2 itself; only an SCV core (protocol v3 through the adapter) can lack them. */
const INHERENT_IN_V2: ReadonlySet<string> = new Set([
  UI_CAPABILITIES.steer,
  UI_CAPABILITIES.thinking,
  UI_CAPABILITIES.sessions,
  UI_CAPABILITIES.undo,
  UI_CAPABILITIES.skills,
  UI_CAPABILITIES.goal,
  UI_CAPABILITIES.userBash,
]);

/**
 * Whether the core can do `capability`: features a core lacks are hidden, never faked. The webview (what it shows) and
 * the host (context keys for the palette and menus) share this rule.
 */
export function supports(state: Pick<SessionState, 'core'>, capability: UiCapability): boolean {
  return supportsFor(state.core.kind, state.core.capabilities, capability);
}

/** An upstream catcode-core has these without announcing them; ours announces them once they work, SCV has none. */
const INHERENT_IN_UPSTREAM: ReadonlySet<string> = new Set([UI_CAPABILITIES.subagents, UI_CAPABILITIES.intercom, UI_CAPABILITIES.plugins]);

export function supportsFor(kind: CoreKind, capabilities: readonly string[], capability: UiCapability): boolean {
  if (capabilities.includes(capability)) return true;
  if (INHERENT_IN_UPSTREAM.has(capability)) return kind === 'catalyst';
  return INHERENT_IN_V2.has(capability) && kind !== 'scv';
}
