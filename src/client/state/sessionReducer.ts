import type { CoreEvent, EventType } from '../../protocol';
import type { SessionState } from '../../shared/sessionState';
import type { ClientEvent, ClientEventType } from './clientEvents';
import type { WireEvent } from './eventFields';
import type { UntrustedEvent } from './eventFields';
import type { IGNORED_EVENTS } from './ignoredEvents';
import { reduceBashExecution, reduceCheckpointCreated, reduceCheckpointDeleted, reduceCheckpointRestored } from './reduceActivity';
import {
  reduceApprovalChanged,
  reduceApprovalModeSelected,
  reduceAuthed,
  reduceCoreStatus,
  reduceModelSelected,
  reduceModels,
  reduceProtocolHello,
  reduceProviderChanged,
  reduceReady,
  reduceReasoningSelected,
} from './reduceCore';
import {
  reduceApprovalAnswered,
  reduceApprovalError,
  reduceApprovalExpired,
  reduceApprovalRequest,
  reduceAskAnswered,
  reduceAskRequest,
  reduceSudoAnswered,
  reduceSudoRequest,
  reduceWrittenDiff,
} from './reduceInteraction';
import {
  reduceClientNotice,
  reduceCompacted,
  reduceCompacting,
  reduceError,
  reduceHttpRetry,
  reduceInfo,
  reduceMemorySaved,
  reduceSessionChangeFailed,
  reduceSessionRecovered,
} from './reduceNotices';
import { reduceServerQueue, reduceServerTurn, reduceToolProgress } from './reduceServerQueue';
import { reduceAborted, reduceDone, reducePrompt, reduceRunCancelled, reduceSteer } from './reduceRun';
import {
  reduceHistory,
  reduceReset,
  reduceSessionChanged,
  reduceSessionDeleted,
  reduceSessionPinned,
  reduceSessionRenamed,
  reduceSessions,
} from './reduceSession';
import {
  reduceDelta,
  reduceFileChange,
  reduceThinking,
  reduceToolCall,
  reduceToolCallArgs,
  reduceToolCallName,
  reduceToolCallStart,
  reduceToolResult,
} from './reduceStream';
import {
  reduceSubagentDelta,
  reduceSubagentDone,
  reduceSubagentMessage,
  reduceSubagentProgress,
  reduceSubagentStart,
  reduceSubagentToolCall,
  reduceSubagentToolResult,
  reduceWorktreeCleaned,
  reduceWorktreePromoted,
  reduceWorktreeReady,
  reduceWorktreeSeeded,
} from './reduceSubagents';
import { reduceIntercomError, reduceIntercomMessage, reduceIntercomReplied, reduceIntercomResult } from './reduceIntercom';
import { reduceSkills } from './reduceSkills';
import { reduceModelsRefreshed, reduceRateLimited } from './reduceProviderNotices';
import { reduceContextBreakdown, reduceCostUpdate, reduceMetrics, reduceStats } from './reduceUsage';
import { reduceRules } from './reduceRules';
import { reduceConfigChanged } from './reduceSettings';
import { forgetSessionEscalations, noteEscalation, reduceApprovalEscalations } from './reduceApprovalEscalations';
import { reduceAdvisorNote, reduceDigested, reduceReflecting, reduceStuckNudge, reduceSummaryRequired } from './reduceLoopNotices';
import {
  reduceGoalCertified,
  reduceGoalCompletionSummary,
  reduceGoalIteration,
  reduceGoalOnCoreStatus,
  reduceGoalPhase,
  reduceGoalPlan,
  reduceGoalReviewVerdict,
  reduceGoalState,
  reduceGoalStepComplete,
  reduceGoalStepVerdict,
  reduceGoalVerifyVerdict,
  reduceWorkState,
} from './reduceGoal';
import {
  reducePluginCommands,
  reducePluginDisabled,
  reducePluginEnabled,
  reducePluginError,
  reducePluginInstalled,
  reducePluginRemoved,
  reducePluginStatus,
  reducePluginTrustApplied,
  reducePluginTrustPrompt,
  reducePluginsList,
  reducePluginsOnReady,
} from './reducePlugins';

/** One reducer per core event type, reading the event by the mirror's field names (values still unchecked). */
type CoreReducers = { [K in EventType]?: (s: SessionState, e: UntrustedEvent<K>) => SessionState };

/**
 * The core events the session model reduces. Every other type of the mirror is in IGNORED_EVENTS with the reason; an
 * unknown type (a newer core's) leaves the state as is.
 */
const CORE_REDUCERS = {
  ready: (s, e) => reducePluginsOnReady(reduceReady(s, e), e),
  protocol_hello: reduceProtocolHello,
  models: reduceModels,
  authed: reduceAuthed,
  provider_changed: reduceProviderChanged,
  // An escalation ("destructive:always", "allow_pattern") leaves the mode as it is and joins the session's list.
  approval_changed: (s, e) => noteEscalation(reduceApprovalChanged(s, e), e),
  approval_escalations: reduceApprovalEscalations,
  delta: reduceDelta,
  thinking: reduceThinking,
  tool_call_start: reduceToolCallStart,
  tool_call_name: reduceToolCallName,
  tool_call_args: reduceToolCallArgs,
  tool_call: reduceToolCall,
  // A file edit's result also puts the diff of what was written on its approval card.
  tool_result: (s, e) => reduceWrittenDiff(reduceToolResult(s, e), e),
  file_change: reduceFileChange,
  approval_request: reduceApprovalRequest,
  approval_expired: reduceApprovalExpired,
  ask_request: reduceAskRequest,
  sudo_request: reduceSudoRequest,
  done: reduceDone,
  aborted: reduceAborted,
  run_cancelled: reduceRunCancelled,
  steer: reduceSteer,
  info: reduceInfo,
  // An error about an approval answer (or an intercom reply) also goes on that card; the notice is added either way.
  error: (s, e) => reduceRateLimited(reduceError(reduceIntercomError(reduceApprovalError(s, e), e), e), e),
  models_refreshed: reduceModelsRefreshed,
  http_retry: reduceHttpRetry,
  metrics: reduceMetrics,
  stats: reduceStats,
  cost_update: reduceCostUpdate,
  context_breakdown: reduceContextBreakdown,
  rules: reduceRules,
  skills: reduceSkills,
  sessions: reduceSessions,
  session_changed: (s, e) => forgetSessionEscalations(reduceSessionChanged(s, e)),
  session_change_failed: reduceSessionChangeFailed,
  session_renamed: reduceSessionRenamed,
  session_pinned: reduceSessionPinned,
  session_deleted: reduceSessionDeleted,
  reset: reduceReset,
  history: reduceHistory,
  bash_execution: reduceBashExecution,
  checkpoint_created: reduceCheckpointCreated,
  checkpoint_restored: reduceCheckpointRestored,
  checkpoint_deleted: reduceCheckpointDeleted,
  compacting: reduceCompacting,
  compacted: reduceCompacted,
  stuck_nudge: reduceStuckNudge,
  summary_required: reduceSummaryRequired,
  reflecting: reduceReflecting,
  digested: reduceDigested,
  advisor_note: reduceAdvisorNote,
  session_recovered: reduceSessionRecovered,
  memory_saved: reduceMemorySaved,
  config_changed: reduceConfigChanged,
  subagent_start: reduceSubagentStart,
  subagent_progress: reduceSubagentProgress,
  subagent_message: reduceSubagentMessage,
  subagent_delta: reduceSubagentDelta,
  subagent_tool_call: reduceSubagentToolCall,
  // A child's contact_supervisor result also settles its question's card.
  subagent_tool_result: (s, e) => reduceIntercomResult(reduceSubagentToolResult(s, e), e),
  subagent_done: reduceSubagentDone,
  intercom_message: reduceIntercomMessage,
  worktree_ready: reduceWorktreeReady,
  worktree_seeded: reduceWorktreeSeeded,
  worktree_promoted: reduceWorktreePromoted,
  worktree_cleaned: reduceWorktreeCleaned,
  goal_state: reduceGoalState,
  goal_plan: reduceGoalPlan,
  goal_phase: reduceGoalPhase,
  goal_step_complete: reduceGoalStepComplete,
  goal_step_verdict: reduceGoalStepVerdict,
  goal_review_verdict: reduceGoalReviewVerdict,
  goal_verify_verdict: reduceGoalVerifyVerdict,
  goal_iteration: reduceGoalIteration,
  goal_certified: reduceGoalCertified,
  goal_completion_summary: reduceGoalCompletionSummary,
  work_state: reduceWorkState,
  plugins_list: reducePluginsList,
  plugin_commands: reducePluginCommands,
  plugin_trust_prompt: reducePluginTrustPrompt,
  plugin_trust_applied: reducePluginTrustApplied,
  plugin_installed: reducePluginInstalled,
  plugin_removed: reducePluginRemoved,
  plugin_enabled: reducePluginEnabled,
  plugin_disabled: reducePluginDisabled,
  plugin_error: reducePluginError,
  plugin_status: reducePluginStatus,
} satisfies CoreReducers;

export type ReducedEventType = keyof typeof CORE_REDUCERS;
export const REDUCED_EVENT_TYPES: readonly ReducedEventType[] = Object.freeze(Object.keys(CORE_REDUCERS) as ReducedEventType[]);

/** Fails to compile, naming the type, when an event type of the mirror is neither reduced nor in IGNORED_EVENTS. */
type MustBeNever<T extends never> = T;
export type _EveryEventIsReducedOrIgnored = MustBeNever<Exclude<EventType, ReducedEventType | keyof typeof IGNORED_EVENTS>>;

type ClientReducers = { [T in ClientEventType]: (s: SessionState, e: Extract<ClientEvent, { type: T }>) => SessionState };

const CLIENT_REDUCERS: ClientReducers = {
  'client:core_status': (s, e) => reduceGoalOnCoreStatus(reduceCoreStatus(s, e)),
  'client:prompt': reducePrompt,
  'client:model_selected': (s, e) => reduceModelSelected(s, e.model),
  'client:reasoning_selected': (s, e) => reduceReasoningSelected(s, e.effort),
  'client:approval_mode_selected': (s, e) => reduceApprovalModeSelected(s, e.mode),
  'client:approval_answered': reduceApprovalAnswered,
  'client:ask_answered': reduceAskAnswered,
  'client:sudo_answered': reduceSudoAnswered,
  'client:intercom_replied': reduceIntercomReplied,
  'client:notice': reduceClientNotice,
  'client:server_queue': reduceServerQueue,
  'client:tool_progress': reduceToolProgress,
  'client:server_turn': reduceServerTurn,
};

/**
 * The session model's one transition: pure and immutable. It returns the same object when nothing changed and copies
 * only the path it changes (a streamed delta replaces just the last assistant item), so `diffState` yields small
 * patches. Missing or mistyped fields and unknown event types never throw. `revision` counts the changes.
 */
export function sessionReducer(state: SessionState, e: CoreEvent | ClientEvent | WireEvent): SessionState {
  const next = reduceEvent(state, e);
  return next === state ? state : { ...next, revision: state.revision + 1 };
}

function reduceEvent(state: SessionState, e: CoreEvent | ClientEvent | WireEvent): SessionState {
  if (typeof e !== 'object' || e === null || typeof e.type !== 'string') return state;
  if (Object.hasOwn(CLIENT_REDUCERS, e.type)) {
    const reduce = CLIENT_REDUCERS[e.type as ClientEventType] as (s: SessionState, ev: ClientEvent) => SessionState;
    return reduce(state, e as ClientEvent);
  }
  if (!Object.hasOwn(CORE_REDUCERS, e.type)) return state;
  // The table's key is the event's type, so its reducer reads this event's fields: whatever their values, the guards see.
  const reduce = (CORE_REDUCERS as CoreReducers)[e.type as EventType] as ((s: SessionState, ev: object) => SessionState) | undefined;
  return reduce ? reduce(state, e) : state;
}
