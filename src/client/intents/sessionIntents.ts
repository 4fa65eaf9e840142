import type { IntentContext } from './intentContext';
import { agentFacet, type AgentIntents } from './facets/agentFacet';
import { answerFacet, type AnswerIntents } from './facets/answerFacet';
import { approvalFacet, type ApprovalIntents } from './facets/approvalFacet';
import { checkpointFacet, type CheckpointIntents } from './facets/checkpointFacet';
import { conversationFacet, type ConversationIntents } from './facets/conversationFacet';
import { goalFacet, type GoalIntents } from './facets/goalFacet';
import { memoryFacet, type MemoryIntents } from './facets/memoryFacet';
import { modelFacet, type ModelIntents } from './facets/modelFacet';
import { pluginFacet, type PluginIntents } from './facets/pluginFacet';
import { providerFacet, type ProviderIntents } from './facets/providerFacet';
import { queueFacet, type QueueIntents } from './facets/queueFacet';
import { reportFacet, type ReportIntents } from './facets/reportFacet';
import { sessionFileFacet, type SessionFileIntents } from './facets/sessionFileFacet';
import { settingsFacet, type SettingsIntents } from './facets/settingsFacet';
import { skillFacet, type SkillIntents } from './facets/skillFacet';
import { turnFacet, type TurnIntents } from './facets/turnFacet';

/** Everything the user can ask of a session, one facet per domain (./facets), over one IntentContext. */
export type SessionIntents = TurnIntents &
  QueueIntents &
  AnswerIntents &
  AgentIntents &
  GoalIntents &
  PluginIntents &
  SkillIntents &
  ModelIntents &
  ApprovalIntents &
  SettingsIntents &
  SessionFileIntents &
  ConversationIntents &
  MemoryIntents &
  ReportIntents &
  CheckpointIntents &
  ProviderIntents;

export function sessionIntents(ctx: IntentContext): SessionIntents {
  const turn = turnFacet(ctx);
  return {
    ...turn,
    ...queueFacet(ctx),
    ...answerFacet(ctx),
    ...agentFacet(ctx, turn),
    ...goalFacet(ctx),
    ...pluginFacet(ctx),
    ...skillFacet(ctx),
    ...modelFacet(ctx),
    ...approvalFacet(ctx),
    ...settingsFacet(ctx),
    ...sessionFileFacet(ctx),
    ...conversationFacet(ctx),
    ...memoryFacet(ctx),
    ...reportFacet(ctx),
    ...checkpointFacet(ctx),
    ...providerFacet(ctx),
  };
}
