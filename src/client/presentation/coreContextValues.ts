import { supportsFor, type UiCapability } from '../../shared/coreCapabilities';
import { type CoreKind, type SessionState, UI_CAPABILITIES } from '../../shared/sessionState';

/**
 * Context keys that hide, in the palette, menus and keybindings, what the chat's core cannot do — the same rule as the
 * chat itself (src/shared/coreCapabilities). package.json's `when` clauses use these names.
 */
export const CORE_CONTEXT_KEYS = {
  kind: 'catalystCode.core.kind',
  canCheckpoint: 'catalystCode.core.canCheckpoint',
  canUndo: 'catalystCode.core.canUndo',
  canSteer: 'catalystCode.core.canSteer',
  canSwitchSessions: 'catalystCode.core.canSwitchSessions',
  /** Per-change review and editing of a proposal in the diff editor. */
  canEditProposal: 'catalystCode.core.canEditProposal',
  /** Subagents (Run Subagent…): a Catalyst core's, never SCV's. */
  canRunSubagents: 'catalystCode.core.canRunSubagents',
  /** Skills (Apply Skill…, Browse Skill Marketplace…): any core speaking protocol v2, never SCV. */
  canUseSkills: 'catalystCode.core.canUseSkills',
  /** Goal mode (Start Goal…, the Control Center): any core speaking protocol v2, never SCV. */
  canUseGoals: 'catalystCode.core.canUseGoals',
} as const;

export type CoreContextValues = { [K in keyof typeof CORE_CONTEXT_KEYS]: K extends 'kind' ? CoreKind : boolean };

const CAPABILITY_OF: Record<Exclude<keyof typeof CORE_CONTEXT_KEYS, 'kind'>, UiCapability> = {
  canCheckpoint: UI_CAPABILITIES.checkpoints,
  canUndo: UI_CAPABILITIES.undo,
  canSteer: UI_CAPABILITIES.steer,
  canSwitchSessions: UI_CAPABILITIES.sessions,
  canEditProposal: UI_CAPABILITIES.editedContent,
  canRunSubagents: UI_CAPABILITIES.subagents,
  canUseSkills: UI_CAPABILITIES.skills,
  canUseGoals: UI_CAPABILITIES.goal,
};

/**
 * The values for the chat's core (`state`), or — before it has told its capabilities (no core yet, starting, failed
 * before the handshake) — what its kind (`configuredKind`, from the settings) leads one to expect: a Catalyst core
 * (embedded or upstream) everything, an SCV server none of these, so the palette is right before the first start.
 */
export function coreContextValues(state: Pick<SessionState, 'core'> | undefined, configuredKind: CoreKind): CoreContextValues {
  const capabilities = state?.core.capabilities ?? [];
  const kind = state?.core.kind ?? configuredKind;
  const can = (capability: UiCapability) => (capabilities.length > 0 ? supportsFor(kind, capabilities, capability) : kind !== 'scv');
  return {
    kind,
    canCheckpoint: can(CAPABILITY_OF.canCheckpoint),
    canUndo: can(CAPABILITY_OF.canUndo),
    canSteer: can(CAPABILITY_OF.canSteer),
    canSwitchSessions: can(CAPABILITY_OF.canSwitchSessions),
    canEditProposal: can(CAPABILITY_OF.canEditProposal),
    canRunSubagents: can(CAPABILITY_OF.canRunSubagents),
    canUseSkills: can(CAPABILITY_OF.canUseSkills),
    canUseGoals: can(CAPABILITY_OF.canUseGoals),
  };
}
