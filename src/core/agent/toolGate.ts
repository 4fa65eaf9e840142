import { approvalRequired } from '../approvals/approvalPolicy';
import type { ApprovalBroker, ApprovalAnswer } from '../approvals/approvalBroker';
import type { Escalations } from '../approvals/escalations';
import { patternCoversTarget } from '../approvals/approvalPolicy';
import type { PermissionRules } from '../approvals/permissionRules';
import type { ApprovalMode } from '../config/config';
import type { ChildEvent } from '../runtime/eventSink';
import { redactSecrets } from '../runtime/redact';
import { previewFileEdit } from '../tools/filePreview';
import { withNotes } from '../tools/outcome';
import type { ToolRegistry } from '../tools/registry';
import type { ToolContext, ToolDefinition, ToolKind, ToolOutcome } from '../tools/types';
import { PathError, isRestrictedPath, resolveWorkspacePath, toWorkspaceRelative } from '../platform/workspace';
import type { GatePlugins } from './gatePlugins';

export const ARGS_PREVIEW_CHARS = 2000;

export interface ApprovalState {
  mode: ApprovalMode;
  rules: PermissionRules;
  escalations: Escalations;
  broker: ApprovalBroker;
}

export interface GateDeps {
  approvals: ApprovalState;
  /** This core's own tools (app/allTools.ts), by name. */
  builtIns: ToolRegistry;
  /** The run's events; a child's keep the run_id they carry (see EventSink.emitInChild), a foreground run's get its own. */
  emit(event: ChildEvent): void;
  /** Called once per turn before the first destructive tool runs (after its approval). */
  beforeDestructive(): Promise<void>;
  toolContext(editedContent?: string): ToolContext;
  /** A reason this core cannot run the tool at all (e.g. bash when a sandbox was requested), or undefined. */
  refuseTool(name: string): string | undefined;
  /** How each call is announced; the default is `tool_call` before, `tool_result` and `file_change` after. */
  announce?: CallAnnouncer;
  /** Set for a child agent's calls: upstream's schema wording, approvals keyed by the child's target. */
  child?: ChildGate;
  /** The main agent's plugins: their tools, and the hooks around each call (absent for children). */
  plugins?: GatePlugins;
}

export interface CallAnnouncer {
  /** Before any check; `args` is `{}` when the arguments are not a JSON object. */
  started(call: ToolCall, args: Record<string, unknown>): void;
  finished(call: ToolCall, outcome: ToolOutcome): void;
}

export interface ChildGate {
  agent: string;
  /** `subagentTarget(runId, agent)`: the `run_id` of the child's approval requests and their key in the broker. */
  target: string;
  /** The child works in its own worktree: under `destructive` its `worktreeUnprompted` file tools are not prompted. */
  worktree?: true;
}

/** The scope a call runs in: a foreground run, or a child run. */
export interface GateScope {
  readonly runId: string;
  readonly signal: AbortSignal;
  readonly cancelled: boolean;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Runs one model tool call through the checks of research §4.1: rules, restricted paths, approval, checkpoint, execution. */
export async function runToolCall(
  deps: GateDeps,
  scope: GateScope,
  call: ToolCall,
  offeredTools: ReadonlySet<string>,
): Promise<ToolOutcome> {
  const announce = callAnnouncer(deps);
  const args = parseArgs(call.arguments);
  announce.started(call, typeof args === 'string' ? {} : args);
  const outcome = typeof args === 'string' ? failed(args) : await decideAndExecute(deps, scope, call, args, offeredTools);
  announce.finished(call, outcome);
  return outcome;
}

/** How the calls of `deps` are announced: its own announcer, else a foreground run's events. */
export function callAnnouncer(deps: GateDeps): CallAnnouncer {
  return deps.announce ?? runEvents(deps);
}

/** A foreground run's announcements: `tool_call`, then `tool_result` and the `file_change`s. */
function runEvents(deps: GateDeps): CallAnnouncer {
  return {
    started: (call) => deps.emit({ type: 'tool_call', id: call.id, name: call.name, args: call.arguments }),
    finished: (call, outcome) => {
      deps.emit({
        type: 'tool_result',
        id: call.id,
        ok: outcome.ok,
        output: outcome.output,
        status: outcome.status,
        ...(outcome.diff !== undefined ? { diff: outcome.diff } : {}),
      });
      if (outcome.ok)
        for (const fc of outcome.fileChanges)
          deps.emit({ type: 'file_change', path: fc.path, unified_diff: fc.unified_diff, tool: fc.tool });
    },
  };
}

/**
 * The tool a call names. Plugin tools are the main agent's only (research A §7.5): for it a plugin tool, which may
 * override a built-in, else the built-in; for a child the built-in alone, so it is refused a plugin tool even when its
 * offered set would let the name through.
 */
function toolNamed(deps: GateDeps, name: string): ToolDefinition | undefined {
  return deps.child ? deps.builtIns.get(name) : (deps.plugins?.tool(name) ?? deps.builtIns.get(name));
}

async function decideAndExecute(
  deps: GateDeps,
  scope: GateScope,
  call: ToolCall,
  args: Record<string, unknown>,
  offeredTools: ReadonlySet<string>,
): Promise<ToolOutcome> {
  const tool = toolNamed(deps, call.name);
  if (!tool || !offeredTools.has(call.name))
    return failed(deps.child ? notInSchema(call.name, deps.child) : notOffered(deps.builtIns, call.name, offeredTools));
  const refusal = deps.refuseTool(call.name);
  if (refusal) return failed(refusal);
  const ctx = deps.toolContext();
  const judged = assess(deps, tool, call.name, args, ctx.workspace);
  if ('refusal' in judged) return judged.refusal;
  const withInner = (base: ToolContext): ToolContext => ({
    ...base,
    callId: call.id,
    runInner: innerCallRunner(deps, scope, call.id, offeredTools),
  });
  if (tool.gatesInnerCalls) return execute(scope, call, () => tool.execute(args, withInner(ctx)));

  let editedContent: string | undefined;
  if (judged.needsApproval) {
    const answer = await askUser(deps, scope, call, args, judged, ctx.workspace);
    if ('refusal' in answer) return answer.refusal;
    editedContent = answer.editedContent;
  }
  if (scope.cancelled) return cancelled(call.name);
  if (tool.kind === 'destructive') await deps.beforeDestructive();
  const run = (runArgs: Record<string, unknown>) =>
    execute(scope, call, () => tool.execute(runArgs, withInner(editedContent !== undefined ? deps.toolContext(editedContent) : ctx)));
  if (!deps.plugins?.hooks(call.name)) return run(args);
  // A rewrite is judged again by the same assessment as a call of its own, and asked again when the first was asked.
  return runHooked(deps.plugins, call.name, args, run, async (rewritten, rewrittenBy) => {
    const again = assess(deps, tool, call.name, rewritten, ctx.workspace);
    if ('refusal' in again) return again.refusal;
    if (!again.needsApproval && !judged.needsApproval) return undefined;
    const answer = await askUser(deps, scope, call, rewritten, again, ctx.workspace, rewrittenBy);
    if ('refusal' in answer) return answer.refusal;
    if (answer.editedContent !== undefined) editedContent = answer.editedContent;
    return undefined;
  });
}

/** The policy's judgement of one call: refused outright, or allowed to run with or without asking the user. */
type Assessment = { refusal: ToolOutcome } | { kind: ToolKind; target: string | undefined; needsApproval: boolean };

/**
 * The per-call policy, in its order: confinement of every path, the permission rules (a deny refuses), restricted
 * paths, then the approval mode. A call and the rewrite of it a plugin hook makes are judged by this one function.
 */
function assess(
  deps: Pick<GateDeps, 'approvals' | 'child'>,
  tool: ToolDefinition,
  name: string,
  args: Record<string, unknown>,
  workspace: string,
): Assessment {
  const targets = tool.targets(args);
  const confinement = checkConfinement(workspace, targets.paths);
  if (confinement) return { refusal: failed(confinement) };
  // A plugin tool (one that overrides a built-in too) is approved by the kind its manifest declares.
  const kind = tool.kind;
  const target = targets.command ?? targets.subject ?? targets.paths[0];
  const { approvals } = deps;
  const verdict = approvals.rules.evaluate(name, target);
  if (verdict === 'deny') return { refusal: denied(name, 'blocked by a permission rule') };
  const restricted = targets.paths.some((p) => isRestrictedPath(p.replace(/^\.\//, '')) || isRestrictedPath(relativeTarget(workspace, p)));
  const needsApproval = approvalRequired({
    mode: approvals.mode,
    kind,
    restricted,
    forceAllow: verdict === 'allow' || (!!deps.child?.worktree && approvals.mode === 'destructive' && !!tool.worktreeUnprompted),
    escalated: approvals.escalations.has(kind),
    // Upstream skips ask rules for a child's calls; here they prompt, or a child would do unasked what its parent may not.
    forceAsk: verdict === 'ask',
  });
  return { kind, target, needsApproval };
}

/**
 * Plugin hooks around one call (upstream's order, research U §4.1: after approval and the checkpoint): the pre hooks may
 * deny it or rewrite its arguments — a rewrite is checked and shown again before it runs (`recheck`) — then the post
 * hooks see its result. Their notes end the model-facing output.
 */
async function runHooked(
  plugins: GatePlugins,
  tool: string,
  args: Record<string, unknown>,
  run: (args: Record<string, unknown>) => Promise<ToolOutcome>,
  recheck: (rewritten: Record<string, unknown>, rewrittenBy: string[]) => Promise<ToolOutcome | undefined>,
): Promise<ToolOutcome> {
  const pre = await plugins.pre(tool, args);
  if (pre.denied) return withNotes({ ok: false, output: pre.denied, status: 'denied', fileChanges: [] }, pre.notes);
  if (pre.rewrittenBy.length > 0) {
    const refusal = await recheck(pre.args, pre.rewrittenBy);
    if (refusal) return withNotes(refusal, pre.notes);
  }
  const outcome = await run(pre.args);
  return withNotes(await plugins.post(tool, pre.args, outcome, pre.notes), pre.notes);
}

/**
 * Asks the user about a call (one prompt at a time per session) and applies the answer: a refusal, or the go-ahead
 * with the user's edited content, if any. `rewrittenBy` names the hooks whose rewrite is being shown again.
 */
async function askUser(
  deps: GateDeps,
  scope: GateScope,
  call: ToolCall,
  args: Record<string, unknown>,
  judged: { kind: ToolKind; target: string | undefined },
  workspace: string,
  rewrittenBy?: string[],
): Promise<{ refusal: ToolOutcome } | { editedContent: string | undefined }> {
  const answer = await oneAtATime(deps.approvals.broker, () =>
    requestApproval(deps, scope, call, args, judged.kind, workspace, judged.target, rewrittenBy),
  );
  if (answer.cancelled) return { refusal: cancelled(call.name) };
  const refusal = applyDecision(deps, call.name, judged.kind, judged.target, answer);
  return refusal ? { refusal } : { editedContent: answer.editedContent };
}

async function execute(scope: GateScope, call: ToolCall, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await run();
  } catch (err) {
    if (scope.cancelled) return cancelled(call.name);
    return failed(`${call.name} failed: ${(err as Error).message}`);
  }
}

/**
 * Runs a bulk tool's inner calls each as a call of its own (tool_call, approval, checkpoint, tool_result,
 * file_change), with ids `<outer id>.<n>`: clients show, review and answer each one like a direct call.
 */
function innerCallRunner(
  deps: GateDeps,
  scope: GateScope,
  outerId: string,
  offeredTools: ReadonlySet<string>,
): NonNullable<ToolContext['runInner']> {
  let count = 0;
  return (name, args) => runToolCall(deps, scope, { id: `${outerId}.${++count}`, name, arguments: JSON.stringify(args) }, offeredTools);
}

const approvalQueues = new WeakMap<object, Promise<unknown>>();

/** One approval prompt at a time per session, as upstream asks them: the calls of a read wave wait their turn to ask. */
function oneAtATime<T>(session: object, ask: () => Promise<T>): Promise<T> {
  const next = (approvalQueues.get(session) ?? Promise.resolve()).then(ask, ask);
  approvalQueues.set(
    session,
    next.catch(() => undefined),
  );
  return next;
}

async function requestApproval(
  deps: GateDeps,
  scope: GateScope,
  call: ToolCall,
  args: Record<string, unknown>,
  kind: ToolKind,
  workspace: string,
  target?: string,
  rewrittenBy?: string[],
): Promise<ApprovalAnswer> {
  const broker = deps.approvals.broker;
  const requestId = broker.nextRequestId(call.id);
  // A plugin tool that overrides write_file or edit does what its handler does: a built-in's diff would misstate it.
  const builtin = toolNamed(deps, call.name) === deps.builtIns.get(call.name);
  const preview = builtin ? await previewFileEdit(call.name, args, workspace).catch(() => null) : null;
  const createdAt = Date.now();
  const runId = deps.child?.target ?? scope.runId;
  const wait = broker.wait({ requestId, toolCallId: call.id, tool: call.name, runId, target, createdAt }, scope.signal);
  deps.emit({
    type: 'approval_request',
    ...(deps.child ? { run_id: runId } : {}),
    request_id: requestId,
    tool_call_id: call.id,
    tool: call.name,
    risk: kind,
    requested_permission: kind,
    created_at: createdAt,
    args: argsPreview(args),
    ...(preview && 'diff' in preview ? { diff: preview.diff } : {}),
    ...(rewrittenBy ? { rewritten_by: rewrittenBy } : {}),
  });
  return wait;
}

/** Applies an approval answer; returns the refusal outcome, or undefined when the call may run. */
function applyDecision(
  deps: GateDeps,
  tool: string,
  kind: ToolKind,
  target: string | undefined,
  answer: ApprovalAnswer,
): ToolOutcome | undefined {
  const { approvals } = deps;
  switch (answer.decision) {
    case 'yes':
      return undefined;
    case 'always':
      approvals.escalations.add(kind);
      deps.emit({ type: 'approval_changed', mode: `${kind}:always`, tool });
      return undefined;
    case 'allow_session':
      approvals.rules.addAllow(tool, '*');
      deps.emit({ type: 'approval_changed', mode: 'allow_pattern', tool, pattern: '*' });
      return undefined;
    case 'allow_pattern': {
      const pattern = answer.pattern ?? target ?? '';
      if (!target || !patternCoversTarget(pattern, target)) {
        deps.emit({ type: 'error', code: 'approval_scope', message: 'approval pattern exceeds or does not match the requested scope' });
        return denied(tool, `the approval pattern '${pattern}' does not cover the request`);
      }
      approvals.rules.addAllow(tool, pattern);
      deps.emit({ type: 'approval_changed', mode: 'allow_pattern', tool, pattern });
      return undefined;
    }
    default:
      return denied(tool, answer.expired ? 'the approval request expired' : undefined);
  }
}

export function argsPreview(args: Record<string, unknown>): string {
  const text = JSON.stringify(redactSecrets(args));
  return text.length <= ARGS_PREVIEW_CHARS ? text : text.slice(0, ARGS_PREVIEW_CHARS - 1) + '…';
}

function parseArgs(raw: string): Record<string, unknown> | string {
  if (!raw.trim()) return {};
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    return 'tool arguments must be a JSON object';
  } catch (err) {
    return `tool arguments are not valid JSON: ${(err as Error).message}`;
  }
}

function checkConfinement(workspace: string, paths: string[]): string | undefined {
  for (const p of paths) {
    try {
      resolveWorkspacePath(workspace, p);
    } catch (err) {
      if (err instanceof PathError) return `refused: ${err.message}`;
      throw err;
    }
  }
  return undefined;
}

function relativeTarget(workspace: string, p: string): string {
  try {
    return toWorkspaceRelative(workspace, resolveWorkspacePath(workspace, p));
  } catch {
    return p;
  }
}

/** Upstream's wording for a deferred tool the session has not loaded; the tools on offer for any other name. */
function notOffered(builtIns: ToolRegistry, name: string, offeredTools: ReadonlySet<string>): string {
  if (builtIns.get(name)?.deferred) {
    return `tool '${name}' is deferred and not enabled this session. Call load_tools with tools:["${name}"] (or a group: git, web, bulk, browser, all), then retry the call.`;
  }
  return `unknown tool '${name}'; available tools: ${[...offeredTools].join(', ')}`;
}

/** Upstream's wording for a tool outside a child agent's schema. */
function notInSchema(name: string, child: ChildGate): string {
  return `tool '${name}' is not available to agent '${child.agent}' (not in its tool schema). Declare it in the agent's tools: frontmatter if needed.`;
}

const cancelled = (tool: string): ToolOutcome => ({
  ok: false,
  output: `tool call '${tool}' was cancelled`,
  status: 'cancelled',
  fileChanges: [],
});
const failed = (output: string): ToolOutcome => ({ ok: false, output, status: 'failed', fileChanges: [] });
const denied = (tool: string, why?: string): ToolOutcome => ({
  ok: false,
  output: `tool call '${tool}' was denied by the user${why ? ` (${why})` : ''}`,
  status: 'denied',
  fileChanges: [],
});
