// The SCV v3 ⇄ Catalyst v2 translation with all the state it needs: pure, no I/O and no timers. The connection feeds it
// parsed server events and the session's commands and carries out what it returns (events for the session, frames for
// the server, log lines). The stateless event shapes are in scvEventMapping.ts.
import type { Command, CommandOf, CoreEvent, EventOf } from '../../../protocol';
import {
  BACKGROUND_REQUEST_PREFIX,
  type ApprovalPolicy,
  type ClientMessage,
  type ClientMessageType,
  type JobChange,
  type PeerInfo,
  type QueueEntry,
  type Usage,
  type ServerEventType,
  PROTOCOL_VERSION,
  carriesSeq,
  encodeClientFrame,
  isServerEventType,
  promptLimitError,
} from '../../../protocol/scv';
import type { ClientEvent } from '../../state/clientEvents';
import { type Untrusted, num, record, records, str } from '../../state/eventFields';
import type { ApprovalRules } from './approvalRules';
import { QueueMirror, type MirroredEntry } from './queueMirror';
import {
  CANCELLED_TURN_NOTE,
  approvalRequestEvent,
  backgroundReportedMessage,
  backgroundUpdatedMessage,
  compactedEvent,
  errorEvent,
  infoEvent,
  notAvailable,
  protocolHelloEvent,
  readyEvent,
  serverTurnReason,
  toolCallEvent,
  toolResultEvent,
  trimmedMessage,
  unsupportedMessage,
  type TurnScope,
  type UntrustedServerEvent,
} from './scvEventMapping';
import { SeqChecker } from './seqChecker';

export interface OutgoingFrame {
  message: ClientMessage;
  /** The encoded line, newline included, already checked against the client frame limit. */
  line: string;
}

/** What one input produced, in order. */
export interface TranslatorStep {
  /** Catalyst v2 events and `client:*` events, for the session. */
  events: (CoreEvent | ClientEvent)[];
  /** Frames to write to the server. */
  messages: OutgoingFrame[];
  logs: string[];
  /** The handshake failed for this reason; nothing more will come of this connection. */
  handshakeError?: string;
  /** The server declared the connection unusable after the handshake. */
  fatal?: string;
  /** The server announced its frame limit: lines above it are to be dropped. */
  maxServerFrameBytes?: number;
}

export interface CommandStep extends TranslatorStep {
  /** False when the command was refused (an `error` event says why) or could not be mapped. */
  accepted: boolean;
}

export interface ScvTranslatorOptions {
  /** The workspace folder: `session.start.cwd`. */
  workspace: string;
  client: PeerInfo;
  rules: ApprovalRules;
  /** The `--approval-policy` the server was started with (its default, on-risk, when undefined). */
  policy?: ApprovalPolicy;
  now?: () => number;
}

export const QUEUE_CONFLICT_MESSAGE = 'The queued prompt changed meanwhile; your change was not applied';
export const NOTHING_TO_STOP = 'nothing to stop';
const QUEUE_EMPTY = 'queue already empty';
/** Request ids remembered to classify the server's errors; older ones are forgotten first. */
const MAX_REMEMBERED_REQUESTS = 1024;

type Phase = 'new' | 'initializing' | 'starting_session' | 'awaiting_snapshot' | 'ready' | 'failed';

/** A `turn.start` the server has not answered yet. Its prompt shows when its turn starts (or when it is dequeued). */
interface PendingStart {
  prompt: string;
}

interface RunningTurn {
  id: string;
  requestId: string | undefined;
}

interface PendingApproval {
  tool: string;
  risk: string;
}

type Loose = Record<string, unknown> & { type: string };

type ServerEventHandlers = { [K in ServerEventType]: (e: UntrustedServerEvent<K>, step: TranslatorStep) => void };

/** The server events that may come before `session.started`; every other one needs the session. */
const HANDSHAKE_EVENT_TYPES: ReadonlySet<ServerEventType> = new Set(['daemon.status', 'initialized', 'session.started', 'error']);

/** One SCV session over one connection, as a Catalyst v2 core. */
export class ScvTranslator {
  private phase: Phase = 'new';
  private requestCounter = 0;
  private readonly requests = new Map<string, ClientMessageType>();
  private initializeId: string | undefined;
  private sessionStartId: string | undefined;
  private server: PeerInfo | undefined;
  private sessionId: string | undefined;
  private model = '';
  private contextMaxTokens: number | undefined;
  private readonly seq = new SeqChecker();
  private readonly queue = new QueueMirror();
  private readonly pendingStarts = new Map<string, PendingStart>();
  private cancelWhenStarted = false;
  private turn: RunningTurn | undefined;
  /** `tool.proposed` arguments by call id, for the approval that may follow; cleared when the turn ends. */
  private readonly proposals = new Map<string, unknown>();
  private readonly approvals = new Map<string, PendingApproval>();
  /** The text streamed for the current model step, to reconcile with `assistant.completed`. */
  private stepText = '';
  private readonly unknownTypes = new Set<string>();
  private readonly totals = { input: 0, lastInput: 0, output: 0, turns: 0, compactions: 0 };
  private readonly now: () => number;

  constructor(private readonly o: ScvTranslatorOptions) {
    this.now = o.now ?? Date.now;
  }

  get ready(): boolean {
    return this.phase === 'ready';
  }

  /** Whether a turn runs or a `turn.start` awaits its answer (the session then shows a run going). */
  get busy(): boolean {
    return this.turn !== undefined || this.pendingStarts.size > 0;
  }

  get currentTurnId(): string | undefined {
    return this.turn?.id;
  }

  queueEntries(): readonly MirroredEntry[] {
    return this.queue.all();
  }

  /** The handshake's first frame: `initialize`. */
  begin(): TranslatorStep {
    const step = newStep();
    if (this.phase !== 'new') {
      step.logs.push('SCV handshake already begun');
      return step;
    }
    this.phase = 'initializing';
    this.initializeId = this.nextRequestId();
    this.write(step, {
      type: 'initialize',
      request_id: this.initializeId,
      protocol_version: PROTOCOL_VERSION,
      client: { ...this.o.client },
    });
    return step;
  }

  // ── Server events ──────────────────────────────────────────────────────────

  /** One decoded line from the server. */
  onServerValue(value: unknown): TranslatorStep {
    const step = newStep();
    const e = record(value) as Loose | undefined;
    if (!e || typeof e.type !== 'string') {
      step.logs.push('SCV stdout: an object without a string "type" was ignored');
      return step;
    }
    if (!isServerEventType(e.type)) {
      this.skipUnknown(e, step);
      return step;
    }
    const seq = num(e.seq);
    if (carriesSeq(e.type) && seq !== undefined) {
      const verdict = this.seq.check(seq);
      if (verdict.log) step.logs.push(verdict.log);
      if (verdict.drop) return step;
    }
    if (this.phase === 'failed') {
      step.logs.push(`SCV ${e.type} after a failed handshake ignored`);
      return step;
    }
    this.route(e.type, e, step);
    return step;
  }

  private skipUnknown(e: Loose, step: TranslatorStep): void {
    if (!this.unknownTypes.has(e.type)) {
      this.unknownTypes.add(e.type);
      step.logs.push(`SCV event type "${e.type}" is unknown to this client; skipped`);
    }
    const seq = num(e.seq);
    if (seq === undefined) {
      this.seq.excuseOne();
      return;
    }
    const verdict = this.seq.check(seq);
    if (verdict.log) step.logs.push(verdict.log);
  }

  /** One handler per server event type, each reading its event by the mirror's field names (values still unchecked). */
  private readonly handlers: ServerEventHandlers = {
    'daemon.status': (_e, step) => {
      step.logs.push('SCV daemon.status ignored (not used over stdio)');
    },
    initialized: (e, step) => this.onInitialized(e, step),
    'session.started': (e, step) => this.onSessionStarted(e, step),
    error: (e, step) => this.onError(e, step),
    'queue.snapshot': (e, step) => this.onQueueSnapshot(e, step),
    'queue.enqueued': (e, step) => this.onQueueEnqueued(e, step),
    'queue.updated': (e, step) => this.onQueueUpdated(e, step),
    'queue.moved': (e, step) => this.onQueueMoved(e, step),
    'queue.removed': (e, step) => this.onQueueRemoved(e, step),
    'queue.dequeued': (e, step) => this.onQueueDequeued(e, step),
    'session.paused': (e, step) => {
      this.queue.setPaused(e.paused === true);
      step.events.push(this.queueEvent());
    },
    'turn.started': (e, step) => this.onTurnStarted(e, step),
    'assistant.delta': (e, step) => this.onAssistantDelta(e, step),
    'assistant.completed': (e, step) => this.onAssistantCompleted(e, step),
    'tool.proposed': (e, step) => this.onToolProposed(e, step),
    'approval.requested': (e, step) => this.onApprovalRequested(e, step),
    'tool.started': (e, step) => {
      step.logs.push(`SCV tool ${str(e.name) ?? '?'} started (call ${str(e.call_id) ?? '?'})`);
    },
    'tool.progress': (e, step) => {
      const id = str(e.call_id);
      const text = str(e.text);
      if (id && text) step.events.push({ type: 'client:tool_progress', id, text });
    },
    'tool.completed': (e, step) => this.onToolCompleted(e, step),
    'context.compacted': (e, step) => {
      this.totals.compactions++;
      step.events.push(compactedEvent(e, this.scope(str(e.turn_id))));
    },
    'session.trimmed': (e, step) => {
      step.events.push(infoEvent(trimmedMessage(e), this.scope()));
    },
    'session.cleared': (_e, step) => this.onSessionCleared(step),
    'turn.completed': (e, step) => this.onTurnCompleted(e, step),
    'turn.cancelled': (e, step) => {
      this.endTurn(str(e.turn_id));
      step.events.push({ type: 'aborted', ...this.scope(str(e.turn_id)) }, infoEvent(CANCELLED_TURN_NOTE, this.scope(str(e.turn_id))));
    },
    'turn.failed': (e, step) => {
      const scope = this.scope(str(e.turn_id));
      this.endTurn(str(e.turn_id));
      step.events.push(errorEvent(str(e.code) ?? 'unknown', str(e.message) || 'the turn failed', scope), { type: 'done', ...scope });
    },
    'background.reported': (e, step) => {
      step.events.push(infoEvent(backgroundReportedMessage(e), this.scope()));
    },
    'background.updated': (e, step) => {
      step.events.push(infoEvent(backgroundUpdatedMessage(e), this.scope()));
    },
  };

  private route(type: ServerEventType, e: Loose, step: TranslatorStep): void {
    if (!HANDSHAKE_EVENT_TYPES.has(type) && this.sessionId === undefined) {
      step.logs.push(`SCV ${type} before session.started ignored`);
      return;
    }
    // The table's key is the event's type, so its handler reads this event's fields: whatever their values, the guards see.
    (this.handlers[type] as (e: Loose, step: TranslatorStep) => void)(e, step);
  }

  // ── Handshake ──────────────────────────────────────────────────────────────

  private onInitialized(e: UntrustedServerEvent<'initialized'>, step: TranslatorStep): void {
    if (this.phase !== 'initializing') {
      step.logs.push('SCV initialized outside the handshake ignored');
      return;
    }
    const server = record<PeerInfo>(e.server);
    this.server = { name: str(server?.name) ?? 'scv-server', version: str(server?.version) ?? '' };
    const version = num(e.protocol_version);
    if (version !== PROTOCOL_VERSION) {
      const peer = `${this.server.name}${this.server.version ? ` ${this.server.version}` : ''}`;
      this.fail(
        step,
        `The SCV server (${peer}) speaks protocol version ${version ?? 'unknown'}, but Catalyst Code speaks version ${PROTOCOL_VERSION}; install a server that speaks version ${PROTOCOL_VERSION}.`,
      );
      return;
    }
    this.phase = 'starting_session';
    this.sessionStartId = this.nextRequestId();
    this.write(step, { type: 'session.start', request_id: this.sessionStartId, cwd: this.o.workspace });
  }

  private onSessionStarted(e: UntrustedServerEvent<'session.started'>, step: TranslatorStep): void {
    const sessionId = str(e.session_id);
    if (this.phase !== 'starting_session' || !sessionId) {
      step.logs.push(
        this.phase !== 'starting_session'
          ? 'SCV session.started outside the handshake ignored'
          : 'SCV session.started without a session_id ignored',
      );
      return;
    }
    this.sessionId = sessionId;
    this.model = str(e.model) ?? '';
    this.contextMaxTokens = num(e.context_max_tokens);
    const frameLimit = num(e.max_server_frame_bytes);
    if (frameLimit !== undefined && Number.isSafeInteger(frameLimit) && frameLimit > 0) step.maxServerFrameBytes = frameLimit;
    const cwd = str(e.cwd);
    if (cwd && cwd !== this.o.workspace) step.logs.push(`SCV session ${sessionId} works in ${cwd} (canonical form of ${this.o.workspace})`);
    step.logs.push(`SCV session ${sessionId} started with model ${this.model || '(none)'}`);
    this.phase = 'awaiting_snapshot';
  }

  private onQueueSnapshot(e: UntrustedServerEvent<'queue.snapshot'>, step: TranslatorStep): void {
    this.queue.replace(
      records<QueueEntry>(e.entries)
        .map((x) => mirroredEntry(x))
        .filter(isDefined),
      e.paused === true,
    );
    if (this.phase === 'awaiting_snapshot') {
      this.phase = 'ready';
      const scope = this.scope();
      step.events.push(
        protocolHelloEvent(this.server, this.o.client, scope),
        readyEvent(
          { model: this.model, contextMaxTokens: this.contextMaxTokens, workspace: this.o.workspace, policy: this.o.policy },
          scope,
        ),
      );
    }
    step.events.push(this.queueEvent());
  }

  private fail(step: TranslatorStep, reason: string): void {
    this.phase = 'failed';
    step.handshakeError = reason;
    step.logs.push(reason);
  }

  // ── Queue ──────────────────────────────────────────────────────────────────

  private onQueueEnqueued(e: UntrustedServerEvent<'queue.enqueued'>, step: TranslatorStep): void {
    const requestId = str(e.request_id);
    const pending = requestId ? this.pendingStarts.get(requestId) : undefined;
    if (requestId) this.pendingStarts.delete(requestId);
    if (this.pendingStarts.size === 0) this.cancelWhenStarted = false;
    const entry = mirroredEntry(record<QueueEntry>(e.entry));
    if (entry) this.queue.insert(entry, num(e.position));
    else step.logs.push('SCV queue.enqueued without a valid entry');
    step.events.push(this.queueEvent());
    if (!pending && requestId && !requestId.startsWith(BACKGROUND_REQUEST_PREFIX))
      step.logs.push(`SCV queue.enqueued for a request we did not send: ${requestId}`);
  }

  private onQueueUpdated(e: UntrustedServerEvent<'queue.updated'>, step: TranslatorStep): void {
    const entry = mirroredEntry(record<QueueEntry>(e.entry));
    if (!entry) {
      step.logs.push('SCV queue.updated without a valid entry');
      return;
    }
    if (!this.queue.update(entry)) this.queue.insert(entry, undefined);
    step.events.push(this.queueEvent());
  }

  private onQueueMoved(e: UntrustedServerEvent<'queue.moved'>, step: TranslatorStep): void {
    const id = str(e.queue_id) ?? '';
    if (!this.queue.move(id, num(e.position), num(e.revision))) step.logs.push(`SCV queue.moved for unknown entry ${id}`);
    step.events.push(this.queueEvent());
  }

  private onQueueRemoved(e: UntrustedServerEvent<'queue.removed'>, step: TranslatorStep): void {
    const id = str(e.queue_id) ?? '';
    if (!this.queue.remove(id)) step.logs.push(`SCV queue.removed for unknown entry ${id}`);
    step.events.push(this.queueEvent());
  }

  /** After the previous turn's terminal event: the entry leaves the queue and its prompt opens the new turn. */
  private onQueueDequeued(e: UntrustedServerEvent<'queue.dequeued'>, step: TranslatorStep): void {
    const id = str(e.queue_id) ?? '';
    const entry = this.queue.remove(id);
    step.events.push(this.queueEvent());
    if (entry) step.events.push({ type: 'client:prompt', text: entry.prompt, images: 0 });
    else step.logs.push(`SCV queue.dequeued for unknown entry ${id}`);
  }

  private queueEvent(): ClientEvent {
    return { type: 'client:server_queue', queue: this.queue.view() };
  }

  // ── Turns ──────────────────────────────────────────────────────────────────

  private onTurnStarted(e: UntrustedServerEvent<'turn.started'>, step: TranslatorStep): void {
    const turnId = str(e.turn_id);
    if (!turnId) {
      step.logs.push('SCV turn.started without a turn_id ignored');
      return;
    }
    const requestId = str(e.request_id);
    const pending = requestId ? this.pendingStarts.get(requestId) : undefined;
    if (requestId) this.pendingStarts.delete(requestId);
    if (this.turn && this.turn.id !== turnId) step.logs.push(`SCV turn ${turnId} started while turn ${this.turn.id} had not ended`);
    this.turn = { id: turnId, requestId };
    this.stepText = '';
    if (e.origin !== undefined || requestId?.startsWith(BACKGROUND_REQUEST_PREFIX)) {
      step.events.push({ type: 'client:server_turn', runId: turnId, reason: serverTurnReason(e.origin) });
    } else if (pending) {
      // The server is the one that knows whether a prompt runs now or waits: the transcript shows it when it runs.
      step.events.push({ type: 'client:prompt', text: pending.prompt, images: 0 });
    }
    if (pending && this.cancelWhenStarted) {
      this.cancelWhenStarted = false;
      this.sendCancel(step, turnId);
    }
  }

  private onAssistantDelta(e: UntrustedServerEvent<'assistant.delta'>, step: TranslatorStep): void {
    const text = str(e.content);
    if (!text) return;
    this.stepText += text;
    step.events.push({ type: 'delta', text, ...this.scope(str(e.turn_id)) });
  }

  /** The canonical text of one model step: a tail the stream missed is added; any other difference is only logged. */
  private onAssistantCompleted(e: UntrustedServerEvent<'assistant.completed'>, step: TranslatorStep): void {
    const content = str(e.content) ?? '';
    const streamed = this.stepText;
    this.stepText = '';
    if (content === streamed) return;
    if (content.startsWith(streamed)) {
      step.events.push({ type: 'delta', text: content.slice(streamed.length), ...this.scope(str(e.turn_id)) });
      return;
    }
    step.logs.push(
      `SCV assistant.completed differs from the streamed text of this step (${streamed.length} chars streamed, ${content.length} final); the streamed text is kept`,
    );
  }

  private onToolProposed(e: UntrustedServerEvent<'tool.proposed'>, step: TranslatorStep): void {
    const callId = str(e.call_id);
    if (!callId) {
      step.logs.push('SCV tool.proposed without a call_id ignored');
      return;
    }
    this.proposals.set(callId, e.arguments);
    step.events.push(toolCallEvent(e, this.scope(str(e.turn_id))));
  }

  private onApprovalRequested(e: UntrustedServerEvent<'approval.requested'>, step: TranslatorStep): void {
    const approvalId = str(e.approval_id);
    if (!approvalId) {
      step.logs.push('SCV approval.requested without an approval_id ignored');
      return;
    }
    const tool = str(e.name) ?? '';
    const risk = str(e.risk) ?? '';
    const turnId = str(e.turn_id) ?? this.turn?.id ?? '';
    const scope = { ...this.scope(turnId), run_id: turnId };
    const rule = this.o.rules.match(tool, risk);
    if (rule) {
      step.logs.push(`SCV approval ${approvalId} (${tool}, ${risk}) answered by the ${rule} rule`);
      this.write(step, {
        type: 'approval.resolve',
        request_id: this.nextRequestId(),
        session_id: this.session(),
        approval_id: approvalId,
        approved: true,
      });
      step.events.push(infoEvent(`Approved by your rule for ${tool} (${rule === 'always' ? 'always' : 'this session'})`, scope));
      return;
    }
    this.approvals.set(approvalId, { tool, risk });
    step.events.push(approvalRequestEvent(e, this.proposals.get(str(e.call_id) ?? ''), this.now(), scope));
  }

  private onToolCompleted(e: UntrustedServerEvent<'tool.completed'>, step: TranslatorStep): void {
    const jobs = records<JobChange>(e.jobs);
    if (jobs.length)
      step.logs.push(
        `SCV tool ${str(e.name) ?? '?'} background jobs: ${jobs.map((j) => `${str(j.job) ?? '?'} ${str(j.status) ?? '?'}`).join(', ')}`,
      );
    step.events.push(toolResultEvent(e, this.scope(str(e.turn_id))));
  }

  private onTurnCompleted(e: UntrustedServerEvent<'turn.completed'>, step: TranslatorStep): void {
    const usage = record<Usage>(e.usage);
    const input = num(usage?.input_tokens);
    if (input !== undefined) this.totals.lastInput = input;
    this.totals.input += input ?? 0;
    this.totals.output += num(usage?.output_tokens) ?? 0;
    this.totals.turns++;
    const scope = this.scope(str(e.turn_id));
    this.endTurn(str(e.turn_id));
    step.events.push({ type: 'done', ...scope });
  }

  private endTurn(turnId: string | undefined): void {
    if (this.turn && (turnId === undefined || this.turn.id === turnId)) this.turn = undefined;
    this.proposals.clear();
    this.approvals.clear();
    this.stepText = '';
  }

  /** History, usage totals and the queue are gone on the server; the transcript goes only now. */
  private onSessionCleared(step: TranslatorStep): void {
    this.queue.clear();
    this.totals.input = 0;
    this.totals.output = 0;
    this.totals.turns = 0;
    this.totals.compactions = 0;
    step.events.push({ type: 'reset', ...this.scope() }, this.queueEvent());
  }

  // ── Errors ─────────────────────────────────────────────────────────────────

  private onError(e: UntrustedServerEvent<'error'>, step: TranslatorStep): void {
    const code = str(e.code) ?? 'unknown';
    const message = str(e.message) || `the SCV server reported ${code}`;
    const requestId = str(e.request_id);
    const answers = requestId ? this.requests.get(requestId) : undefined;
    if (this.phase !== 'ready') {
      const aboutHandshake = requestId === undefined || requestId === this.initializeId || requestId === this.sessionStartId;
      if (e.fatal === true || aboutHandshake) {
        const peer = this.server ? ` (${this.server.name}${this.server.version ? ` ${this.server.version}` : ''})` : '';
        this.fail(step, `The SCV server${peer} refused to start a session: ${message} [${code}]`);
      } else {
        step.logs.push(`SCV error [${code}] during the handshake: ${message}`);
      }
      return;
    }
    step.logs.push(`SCV error [${code}]${answers ? ` answering ${answers}` : ''}${e.fatal === true ? ' (fatal)' : ''}: ${message}`);
    if (e.fatal === true) {
      step.events.push(errorEvent(code, `The SCV server ended the connection: ${message}`, this.scope()));
      step.fatal = `${message} [${code}]`;
      return;
    }
    if (answers === 'turn.start' && requestId) return this.onTurnStartRefused(requestId, code, message, step);
    // The turn ended before the cancel arrived: nothing to tell the user.
    if (answers === 'turn.cancel' && code === 'turn_not_found') return;
    if (code === 'queue_conflict') {
      step.events.push(errorEvent('queue_conflict', QUEUE_CONFLICT_MESSAGE, this.scope()));
      return;
    }
    step.events.push(errorEvent(code, message, this.scope()));
  }

  private onTurnStartRefused(requestId: string, code: string, message: string, step: TranslatorStep): void {
    const pending = this.pendingStarts.get(requestId);
    this.pendingStarts.delete(requestId);
    if (this.pendingStarts.size === 0) this.cancelWhenStarted = false;
    step.events.push(errorEvent(code, message, this.scope()));
    if (!pending) step.logs.push(`SCV refused turn.start ${requestId}, which is not pending`);
  }

  // ── Commands ───────────────────────────────────────────────────────────────

  /** A Catalyst v2 command from the session. */
  onCommand(cmd: Command): CommandStep {
    const step: CommandStep = { ...newStep(), accepted: false };
    if (this.phase !== 'ready') {
      step.events.push(errorEvent('not_ready', 'The SCV server has not finished starting'));
      return step;
    }
    switch (cmd.type) {
      case 'send':
        step.accepted = this.send(cmd, step);
        break;
      case 'abort':
        step.accepted = this.abort(step);
        break;
      case 'clear_queue':
        step.accepted = this.clearQueue(step);
        break;
      case 'clear':
      case 'reset':
        step.accepted = this.clear(step);
        break;
      case 'approve':
        step.accepted = this.approve(cmd, step);
        break;
      case 'stats':
        step.events.push(this.statsEvent());
        step.accepted = true;
        break;
      default:
        step.events.push(errorEvent('unsupported', unsupportedMessage(cmd.type), this.scope()));
    }
    return step;
  }

  private send(cmd: CommandOf<'send'>, step: TranslatorStep): boolean {
    const refuse = (code: string, message: string): false => {
      step.events.push(errorEvent(code, message, this.scope()));
      return false;
    };
    const prompt = typeof cmd.prompt === 'string' ? cmd.prompt : '';
    if (cmd.images?.length) return refuse('unsupported', 'Images are not available with an SCV server; send the prompt without them');
    const tooLong = promptLimitError(prompt);
    if (tooLong) return refuse('prompt_too_large', tooLong);
    const requestId = this.nextRequestId();
    if (!this.write(step, { type: 'turn.start', request_id: requestId, session_id: this.session(), prompt })) return false;
    this.pendingStarts.set(requestId, { prompt });
    return true;
  }

  /** Cancels the running turn; a turn.start still unanswered is cancelled once it starts. Queued prompts stay. */
  private abort(step: TranslatorStep): boolean {
    if (this.turn) return this.sendCancel(step, this.turn.id);
    if (this.pendingStarts.size > 0) {
      this.cancelWhenStarted = true;
      step.logs.push('SCV abort: the turn has not started yet; it is cancelled as soon as it starts');
      return true;
    }
    step.events.push(infoEvent(NOTHING_TO_STOP, this.scope()));
    return true;
  }

  private sendCancel(step: TranslatorStep, turnId: string): boolean {
    return this.write(step, { type: 'turn.cancel', request_id: this.nextRequestId(), session_id: this.session(), turn_id: turnId });
  }

  private clearQueue(step: TranslatorStep): boolean {
    const entries = this.queue.all();
    if (entries.length === 0) {
      step.events.push(infoEvent(QUEUE_EMPTY, this.scope()));
      return true;
    }
    let all = true;
    for (const entry of entries) all = this.writeRemove(step, entry) && all;
    return all;
  }

  private clear(step: TranslatorStep): boolean {
    if (this.turn) {
      step.events.push(
        errorEvent('turn_active', 'SCV clears the conversation only between turns; stop the running turn first', this.scope()),
      );
      return false;
    }
    return this.write(step, { type: 'session.clear', request_id: this.nextRequestId(), session_id: this.session() });
  }

  private approve(cmd: CommandOf<'approve'>, step: TranslatorStep): boolean {
    if (cmd.decision === 'allow_pattern') {
      step.events.push(errorEvent('unsupported', notAvailable('Allowing a command or path pattern'), this.scope()));
      return false;
    }
    const approved = cmd.decision !== 'no';
    if (approved && cmd.edited_content !== undefined) {
      step.events.push(errorEvent('unsupported', 'SCV cannot apply an edited proposal', this.scope()));
      return false;
    }
    const pending = this.approvals.get(cmd.request_id);
    this.approvals.delete(cmd.request_id);
    if (pending && (cmd.decision === 'allow_session' || cmd.decision === 'always')) {
      const scope = cmd.decision === 'always' ? 'always' : 'session';
      this.o.rules.remember(scope, pending.tool, pending.risk);
      step.logs.push(`SCV rule added (${scope}): ${pending.tool} with risk ${pending.risk}`);
    }
    return this.write(step, {
      type: 'approval.resolve',
      request_id: this.nextRequestId(),
      session_id: this.session(),
      approval_id: cmd.request_id,
      approved,
    });
  }

  private statsEvent(): EventOf<'stats'> {
    const t = this.totals;
    return {
      type: 'stats',
      // The last request's prompt size: how full the context window was when the model last read it.
      tokens_in: t.lastInput,
      tokens_out: t.output,
      total_in: t.input,
      tokens_total: t.input + t.output,
      cached_tokens: 0,
      cache_hit_ratio: 0,
      turns: t.turns,
      compactions: t.compactions,
      messages: 0,
      session_file: '',
      ...this.scope(),
    };
  }

  // ── The user's queue operations ────────────────────────────────────────────

  queueEdit(id: string, prompt: string): CommandStep {
    return this.queueOperation(id, (step, entry) => {
      const tooLong = promptLimitError(prompt);
      if (tooLong) {
        step.events.push(errorEvent('prompt_too_large', tooLong, this.scope()));
        return false;
      }
      return this.write(step, {
        type: 'queue.update',
        request_id: this.nextRequestId(),
        session_id: this.session(),
        queue_id: entry.id,
        revision: entry.revision,
        prompt,
      });
    });
  }

  queueMove(id: string, beforeId: string | null): CommandStep {
    return this.queueOperation(id, (step, entry) => {
      if (beforeId !== null && !this.queue.get(beforeId)) {
        step.events.push(errorEvent('queue_not_found', 'The queued prompt to move before is no longer in the queue', this.scope()));
        return false;
      }
      return this.write(step, {
        type: 'queue.move',
        request_id: this.nextRequestId(),
        session_id: this.session(),
        queue_id: entry.id,
        revision: entry.revision,
        before_queue_id: beforeId,
      });
    });
  }

  queueRemove(id: string): CommandStep {
    return this.queueOperation(id, (step, entry) => this.writeRemove(step, entry));
  }

  queuePause(paused: boolean): CommandStep {
    const step: CommandStep = { ...newStep(), accepted: false };
    if (!this.requireReady(step)) return step;
    step.accepted = this.write(step, { type: 'session.pause', request_id: this.nextRequestId(), session_id: this.session(), paused });
    return step;
  }

  private queueOperation(id: string, operate: (step: CommandStep, entry: MirroredEntry) => boolean): CommandStep {
    const step: CommandStep = { ...newStep(), accepted: false };
    if (!this.requireReady(step)) return step;
    const entry = this.queue.get(id);
    if (!entry) {
      step.events.push(errorEvent('queue_not_found', 'That prompt is no longer in the queue', this.scope()));
      return step;
    }
    step.accepted = operate(step, entry);
    return step;
  }

  private writeRemove(step: TranslatorStep, entry: MirroredEntry): boolean {
    return this.write(step, {
      type: 'queue.remove',
      request_id: this.nextRequestId(),
      session_id: this.session(),
      queue_id: entry.id,
      revision: entry.revision,
    });
  }

  private requireReady(step: TranslatorStep): boolean {
    if (this.phase === 'ready') return true;
    step.events.push(errorEvent('not_ready', 'The SCV server has not finished starting'));
    return false;
  }

  // ── Helpers ────────────────────────────────────────────────────────────────

  /** Encodes and queues a frame; a frame over the client limit is refused here with an `error` event. */
  private write(step: TranslatorStep, message: ClientMessage): boolean {
    const frame = encodeClientFrame(message);
    if ('error' in frame) {
      step.logs.push(`SCV ${message.type} not sent: ${frame.error}`);
      step.events.push(errorEvent('frame_too_large', capitalize(frame.error), this.sessionId ? this.scope() : {}));
      return false;
    }
    this.requests.set(message.request_id, message.type);
    if (this.requests.size > MAX_REMEMBERED_REQUESTS) this.requests.delete(this.requests.keys().next().value as string);
    step.messages.push({ message, line: frame.line });
    return true;
  }

  private nextRequestId(): string {
    return `c-${++this.requestCounter}`;
  }

  private session(): string {
    return this.sessionId ?? '';
  }

  private scope(turnId?: string): TurnScope {
    const scope: TurnScope = { session_id: this.session() };
    if (turnId) scope.run_id = turnId;
    return scope;
  }
}

function newStep(): TranslatorStep {
  return { events: [], messages: [], logs: [] };
}

function mirroredEntry(e: Untrusted<QueueEntry> | undefined): MirroredEntry | undefined {
  const id = str(e?.queue_id);
  const revision = num(e?.revision);
  if (!id || revision === undefined || !Number.isSafeInteger(revision)) return undefined;
  return { id, revision, prompt: str(e?.prompt) ?? '' };
}

function isDefined<T>(v: T | undefined): v is T {
  return v !== undefined;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
