#!/usr/bin/env node
// A fake `scv-server` for tests: speaks the SCV client protocol v3 over stdio as the 0.3.x spec describes it
// (../shared/research/scv.md §1–§7), with a real agent loop against an OpenAI-compatible streaming endpoint and real
// `write` / `read` / `bash` tools run in the session's workspace. Plain Node, no dependencies.
//
// CLI (the `scv server` form puts the global flags before the `server` subcommand; both forms are accepted):
//   fakeScvServer.mjs [--stdio] [--approval-policy on-risk|always|never] [--model NAME] [--base-url URL]
//                     [--provider NAME] [--scv-home PATH] [--config-path PATH] [server]
// API key: $OPENAI_API_KEY when set. Diagnostics go to stderr only.
//
// Fault injection: $SCV_FAKE_FAULTS, a JSON object with any of
//   protocolVersion: N               `initialized` claims protocol N (the client's version is accepted as is)
//   strictVersion: true              with protocolVersion: behave as a real server speaking N would —
//                                    a client version ≠ N gets the fatal `version_mismatch`
//   unknownEventBeforeCompleted: true   an event of type "future.thing" (consuming a seq) right before turn.completed
//   seqGapBeforeCompleted: true      one seq number is skipped silently right before turn.completed
//   duplicateDelta: true             the connection's first assistant.delta is written twice with the same seq
//   oversizedLineBytes: N            one junk JSON line of N bytes (no seq) right after each turn.started
//   backgroundTurnAfterMs: N         N ms after session.started (or once idle), a server-started turn:
//                                    request_id "background:1", origin {kind:"background", jobs:["job-1"]}
//   exitAfterHandshake: true         exit (code 1) right after session.started + queue.snapshot
//   maxSteps: N                      agent.max_steps (default 32), so step_limit is reachable in a test
//   compactedAfterStarted: true      context.compacted right after each turn.started
//   trimmedAfterCompleted: true      session.trimmed right after each turn.completed
// The model is never retried: every model request consumes exactly one HTTP response.
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const PROTOCOL_VERSION = 3;
const SERVER_NAME = 'scv-server';
const SERVER_VERSION = '0.3.14-fake';
const MAX_CLIENT_FRAME_BYTES = 1024 * 1024;
const MAX_PROMPT_BYTES = 256 * 1024;
const MAX_SERVER_FRAME_BYTES = 8 * 1024 * 1024;
const MAX_TOOL_ARGUMENT_BYTES = 256 * 1024;
const MAX_TOOL_CALLS_PER_RESPONSE = 32;
const MAX_QUEUE_ENTRIES = 64;
const MAX_TOOL_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_READ_LIMIT = 256 * 1024;
const DEFAULT_BASH_TIMEOUT_SECONDS = 120;
const PROGRESS_INTERVAL_MS = 500;
const PROGRESS_MAX_BYTES = 512;
const PROGRESS_LINE_MAX_BYTES = 200;
const EOF_GRACE_MS = 3000;
const KILL_GRACE_MS = 2000;
const DENIED_OUTPUT = 'tool call denied by policy or user';

// ---- command line and faults ------------------------------------------------------------------

const FLAGS_WITH_VALUE = new Set(['--approval-policy', '--model', '--base-url', '--provider', '--scv-home', '--config-path']);

function parseArgs(argv) {
  const opts = { approvalPolicy: 'on-risk', model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1', provider: 'openai' };
  let subcommand;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--stdio') continue;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (FLAGS_WITH_VALUE.has(name)) {
      const value = eq > 0 && name !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) usage(`${name} needs a value`);
      if (name === '--approval-policy') {
        if (!['on-risk', 'always', 'never'].includes(value)) usage(`invalid value '${value}' for '--approval-policy'`);
        opts.approvalPolicy = value;
      } else if (name === '--model') opts.model = value;
      else if (name === '--base-url') opts.baseUrl = value;
      else if (name === '--provider') opts.provider = value;
      // --scv-home and --config-path are accepted; the fake keeps no state on disk.
      continue;
    }
    if (arg === 'server' && subcommand === undefined) {
      subcommand = arg;
      continue;
    }
    usage(`unexpected argument '${arg}'`);
  }
  return opts;
}

function usage(message) {
  process.stderr.write(
    `error: ${message}\n\nUsage: scv-server [--stdio] [--approval-policy <on-risk|always|never>] [--model <NAME>] [--base-url <URL>] [--provider <NAME>] [--scv-home <PATH>] [--config-path <PATH>]\n`,
  );
  process.exit(2);
}

function readFaults() {
  const raw = process.env.SCV_FAKE_FAULTS;
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // reported below
  }
  process.stderr.write(`error: SCV_FAKE_FAULTS is not a JSON object: ${raw}\n`);
  process.exit(2);
}

const options = parseArgs(process.argv.slice(2));
const faults = readFaults();
const serverProtocolVersion = Number.isInteger(faults.protocolVersion) ? faults.protocolVersion : PROTOCOL_VERSION;
const maxSteps = Number.isInteger(faults.maxSteps) && faults.maxSteps > 0 ? faults.maxSteps : 32;

function diag(message) {
  process.stderr.write(`scv-server(fake): ${message}\n`);
}

// ---- output -----------------------------------------------------------------------------------

function writeLine(text) {
  process.stdout.write(text + '\n');
}

function send(event) {
  writeLine(JSON.stringify(event));
}

function sendError(requestId, code, message, fatal = false) {
  send({ type: 'error', request_id: requestId ?? null, code, message, fatal });
}

class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// ---- the connection ---------------------------------------------------------------------------

const connection = {
  initialized: false,
  clientName: 'client',
  session: undefined,
  closing: false,
};

class Session {
  constructor(id, cwd, overrides) {
    this.id = id;
    this.cwd = cwd;
    this.model = overrides.model ?? options.model;
    this.baseUrl = overrides.baseUrl ?? options.baseUrl;
    this.noTools = overrides.noTools;
    this.systemPrompt = overrides.systemPrompt;
    this.autoApprove = overrides.autoApprove;
    this.seq = 0;
    this.history = [];
    this.queue = [];
    this.paused = false;
    this.active = undefined;
    this.queueCounter = 0;
    this.backgroundCounter = 0;
    this.pendingBackground = [];
    this.duplicatedDelta = false;
  }

  /** Session-scoped events carry the session's consecutive seq. */
  emit(event) {
    const full = { ...event, session_id: this.id, seq: ++this.seq };
    const line = JSON.stringify(full);
    writeLine(line);
    return line;
  }
}

function handleMessage(msg) {
  const requestId = typeof msg.request_id === 'string' ? msg.request_id : null;
  if (typeof msg.type !== 'string' || typeof msg.request_id !== 'string') {
    throw new ProtocolError('invalid_json', 'invalid message: every message needs a string `type` and `request_id`');
  }
  if (!KNOWN_TYPES.has(msg.type)) throw new ProtocolError('invalid_json', `invalid message: unknown variant \`${msg.type}\``);
  if (!connection.initialized && msg.type !== 'initialize') {
    throw new ProtocolError('not_initialized', 'the first message must be initialize');
  }
  HANDLERS[msg.type](msg, requestId);
}

const HANDLERS = {
  initialize(msg, requestId) {
    if (connection.initialized) throw new ProtocolError('invalid_request', 'already initialized');
    if (!Number.isInteger(msg.protocol_version))
      throw new ProtocolError('invalid_json', 'invalid message: missing field `protocol_version`');
    if (!isPeerInfo(msg.client)) throw new ProtocolError('invalid_json', 'invalid message: missing field `client`');
    const strict = faults.protocolVersion === undefined || faults.strictVersion === true;
    if (strict && msg.protocol_version !== serverProtocolVersion) {
      sendError(
        requestId,
        'version_mismatch',
        `client speaks protocol ${msg.protocol_version}, this server speaks ${serverProtocolVersion}`,
        true,
      );
      shutdown(1);
      return;
    }
    connection.initialized = true;
    connection.clientName = msg.client.name;
    send({
      type: 'initialized',
      request_id: requestId,
      protocol_version: serverProtocolVersion,
      server: { name: SERVER_NAME, version: SERVER_VERSION },
    });
  },

  'session.start'(msg, requestId) {
    if (typeof msg.cwd !== 'string') throw new ProtocolError('invalid_json', 'invalid message: missing field `cwd`');
    if (connection.session)
      throw new ProtocolError('invalid_request', 'this connection already has a session (one session per connection)');
    if (!isAbsolute(msg.cwd)) throw new ProtocolError('invalid_request', `cwd must be an absolute path: ${msg.cwd}`);
    let cwd;
    try {
      cwd = realpathSync(msg.cwd);
      if (!statSync(cwd).isDirectory()) throw new Error('not a directory');
    } catch {
      throw new ProtocolError('invalid_request', `cwd is not an existing directory: ${msg.cwd}`);
    }
    if (msg.system_prompt !== undefined && msg.no_tools !== true) {
      throw new ProtocolError('invalid_request', 'system_prompt is only allowed with no_tools: true');
    }
    const session = new Session(randomUUID(), cwd, {
      model: typeof msg.model === 'string' ? msg.model : undefined,
      baseUrl: typeof msg.base_url === 'string' ? msg.base_url : undefined,
      noTools: msg.no_tools === true,
      systemPrompt: typeof msg.system_prompt === 'string' ? msg.system_prompt : undefined,
      autoApprove: msg.auto_approve === true,
    });
    connection.session = session;
    send({
      type: 'session.started',
      request_id: requestId,
      session_id: session.id,
      cwd,
      model: session.model,
      context_max_tokens: 128000,
      max_server_frame_bytes: MAX_SERVER_FRAME_BYTES,
      max_transcript_bytes: 4 * 1024 * 1024,
      max_transcript_items: 2000,
      max_prompt_history_bytes: 1024 * 1024,
      max_prompt_history_items: 500,
    });
    session.emit({ type: 'queue.snapshot', request_id: requestId, entries: [], paused: false });
    if (faults.exitAfterHandshake === true) {
      diag('fault exitAfterHandshake: exiting');
      process.exit(1);
    }
    if (Number.isInteger(faults.backgroundTurnAfterMs)) {
      setTimeout(() => scheduleBackgroundTurn(session), faults.backgroundTurnAfterMs);
    }
  },

  'session.attach'() {
    throw new ProtocolError('unsupported', 'session.attach is not supported: sessions belong to the connection that started them');
  },

  'daemon.control'() {
    throw new ProtocolError('unsupported', 'daemon.control is only available on the daemon socket');
  },

  'turn.start'(msg, requestId) {
    const session = sessionOf(msg);
    const prompt = promptOf(msg);
    if (prompt === '' && !(Array.isArray(msg.attachments) && msg.attachments.length > 0)) {
      throw new ProtocolError('invalid_request', 'prompt is empty');
    }
    if (session.active || session.queue.length > 0) {
      if (session.queue.length >= MAX_QUEUE_ENTRIES)
        throw new ProtocolError('queue_limit', `the queue is full (${MAX_QUEUE_ENTRIES} prompts)`);
      const entry = { queue_id: `q-${++session.queueCounter}`, revision: 1, prompt, submitter: connection.clientName };
      session.queue.push({ entry, requestId });
      session.emit({ type: 'queue.enqueued', request_id: requestId, entry, position: session.queue.length - 1 });
      maybeDequeue(session);
      return;
    }
    startTurn(session, { requestId, prompt });
  },

  'queue.update'(msg, requestId) {
    const session = sessionOf(msg);
    const prompt = promptOf(msg);
    if (prompt === '') throw new ProtocolError('invalid_request', 'prompt is empty');
    const item = queuedItem(session, msg);
    item.entry = { ...item.entry, prompt, revision: item.entry.revision + 1 };
    session.emit({ type: 'queue.updated', request_id: requestId, entry: item.entry });
  },

  'queue.move'(msg, requestId) {
    const session = sessionOf(msg);
    const before = msg.before_queue_id;
    if (before !== null && typeof before !== 'string')
      throw new ProtocolError('invalid_json', 'invalid message: missing field `before_queue_id`');
    const item = queuedItem(session, msg);
    if (before === item.entry.queue_id) throw new ProtocolError('invalid_request', 'a queued prompt cannot move before itself');
    if (before !== null && !session.queue.some((q) => q.entry.queue_id === before)) {
      throw new ProtocolError('queue_not_found', `no queued prompt ${before}`);
    }
    session.queue.splice(session.queue.indexOf(item), 1);
    const position = before === null ? session.queue.length : session.queue.findIndex((q) => q.entry.queue_id === before);
    session.queue.splice(position, 0, item);
    item.entry = { ...item.entry, revision: item.entry.revision + 1 };
    session.emit({ type: 'queue.moved', request_id: requestId, queue_id: item.entry.queue_id, position, revision: item.entry.revision });
  },

  'queue.remove'(msg, requestId) {
    const session = sessionOf(msg);
    const item = queuedItem(session, msg);
    session.queue.splice(session.queue.indexOf(item), 1);
    session.emit({ type: 'queue.removed', request_id: requestId, queue_id: item.entry.queue_id, revision: item.entry.revision + 1 });
  },

  'session.pause'(msg, requestId) {
    const session = sessionOf(msg);
    if (typeof msg.paused !== 'boolean') throw new ProtocolError('invalid_json', 'invalid message: missing field `paused`');
    session.paused = msg.paused;
    session.emit({ type: 'session.paused', request_id: requestId, paused: session.paused });
    maybeDequeue(session);
  },

  'turn.cancel'(msg) {
    const session = sessionOf(msg);
    if (typeof msg.turn_id !== 'string') throw new ProtocolError('invalid_json', 'invalid message: missing field `turn_id`');
    const turn = session.active;
    if (!turn || turn.id !== msg.turn_id || turn.controller.signal.aborted) {
      throw new ProtocolError('turn_not_found', `no running turn ${msg.turn_id}`);
    }
    turn.controller.abort();
  },

  'approval.resolve'(msg) {
    const session = sessionOf(msg);
    if (typeof msg.approval_id !== 'string' || typeof msg.approved !== 'boolean') {
      throw new ProtocolError('invalid_json', 'invalid message: approval.resolve needs `approval_id` and `approved`');
    }
    const pending = session.active?.approvals.get(msg.approval_id);
    if (!pending) throw new ProtocolError('approval_not_found', `no pending approval ${msg.approval_id}`);
    session.active.approvals.delete(msg.approval_id);
    pending(msg.approved);
  },

  'session.clear'(msg, requestId) {
    const session = sessionOf(msg);
    if (session.active) throw new ProtocolError('turn_active', 'a turn is running; cancel it before clearing the session');
    session.history = [];
    session.queue = [];
    session.emit({ type: 'session.cleared', request_id: requestId });
  },
};

const KNOWN_TYPES = new Set(Object.keys(HANDLERS));

function isPeerInfo(v) {
  return v !== null && typeof v === 'object' && typeof v.name === 'string' && typeof v.version === 'string';
}

function sessionOf(msg) {
  if (typeof msg.session_id !== 'string') throw new ProtocolError('invalid_json', 'invalid message: missing field `session_id`');
  const session = connection.session;
  if (!session || session.id !== msg.session_id)
    throw new ProtocolError('session_not_found', `no session ${msg.session_id} on this connection`);
  return session;
}

function promptOf(msg) {
  if (typeof msg.prompt !== 'string') throw new ProtocolError('invalid_json', 'invalid message: missing field `prompt`');
  const bytes = Buffer.byteLength(msg.prompt, 'utf8');
  if (bytes > MAX_PROMPT_BYTES) throw new ProtocolError('invalid_request', `prompt is ${bytes} bytes; the limit is ${MAX_PROMPT_BYTES}`);
  return msg.prompt;
}

function queuedItem(session, msg) {
  if (typeof msg.queue_id !== 'string' || !Number.isInteger(msg.revision)) {
    throw new ProtocolError('invalid_json', 'invalid message: missing field `queue_id` or `revision`');
  }
  const item = session.queue.find((q) => q.entry.queue_id === msg.queue_id);
  if (!item) throw new ProtocolError('queue_not_found', `no queued prompt ${msg.queue_id}`);
  if (item.entry.revision !== msg.revision) {
    throw new ProtocolError('queue_conflict', `queued prompt ${msg.queue_id} is at revision ${item.entry.revision}, not ${msg.revision}`);
  }
  return item;
}

// ---- turns ------------------------------------------------------------------------------------

class TurnCancelled extends Error {}

class TurnFailure extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function startTurn(session, { requestId, prompt, origin, turnId = randomUUID() }) {
  const turn = {
    id: turnId,
    requestId,
    origin,
    controller: new AbortController(),
    approvals: new Map(),
    done: undefined,
  };
  session.active = turn;
  turn.done = runTurn(session, turn, prompt).finally(() => {
    session.active = undefined;
    if (!connection.closing) afterTurn(session);
  });
}

function afterTurn(session) {
  const background = session.pendingBackground.shift();
  if (background) {
    background();
    return;
  }
  maybeDequeue(session);
}

function maybeDequeue(session) {
  if (session.active || session.paused || session.queue.length === 0 || connection.closing) return;
  const { entry, requestId } = session.queue.shift();
  const turnId = randomUUID();
  session.emit({ type: 'queue.dequeued', request_id: requestId, queue_id: entry.queue_id, turn_id: turnId });
  startTurn(session, { requestId, prompt: entry.prompt, turnId });
}

function scheduleBackgroundTurn(session) {
  const start = () => {
    const n = ++session.backgroundCounter;
    const jobs = ['job-1'];
    const prompt = `Background job ${jobs.join(', ')} finished: the delegated task completed. Report the result to the user.`;
    startTurn(session, { requestId: `background:${n}`, prompt, origin: { kind: 'background', jobs } });
  };
  if (session.active) session.pendingBackground.push(start);
  else start();
}

async function runTurn(session, turn, prompt) {
  const historyLength = session.history.length;
  const turnEvent = (event) => session.emit({ ...event, request_id: turn.requestId, turn_id: turn.id });
  const origin = turn.origin ? { origin: turn.origin } : {};
  session.history.push({ role: 'user', content: prompt });
  turnEvent({ type: 'turn.started', ...origin });
  if (faults.oversizedLineBytes > 0) writeLine(junkLine(faults.oversizedLineBytes));
  if (faults.compactedAfterStarted === true) {
    turnEvent({ type: 'context.compacted', before_tokens: 120000, after_tokens: 40000, removed_messages: 6 });
  }
  const usage = {};
  try {
    for (let step = 1; step <= maxSteps; step++) {
      const answer = await requestModel(session, turn, turnEvent);
      addUsage(usage, answer.usage);
      turnEvent({ type: 'assistant.completed', content: answer.text });
      const assistant = { role: 'assistant', content: answer.text === '' ? null : answer.text };
      if (answer.toolCalls.length > 0) {
        assistant.tool_calls = answer.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        }));
      }
      session.history.push(assistant);
      if (answer.toolCalls.length === 0) {
        if (faults.unknownEventBeforeCompleted === true) turnEvent({ type: 'future.thing', detail: 'an event from a newer server' });
        if (faults.seqGapBeforeCompleted === true) session.seq++;
        turnEvent({ type: 'turn.completed', steps: step, usage, ...origin });
        if (faults.trimmedAfterCompleted === true) {
          session.emit({ type: 'session.trimmed', request_id: turn.requestId, removed_messages: 2, history_bytes: historyBytes(session) });
        }
        return;
      }
      for (const call of answer.toolCalls) {
        const result = await runToolCall(session, turn, call, turnEvent);
        session.history.push({ role: 'tool', tool_call_id: call.id, content: result.output });
      }
    }
    throw new TurnFailure('step_limit', `the turn reached agent.max_steps (${maxSteps}) without a final answer`);
  } catch (error) {
    session.history.length = historyLength;
    if (error instanceof TurnCancelled || turn.controller.signal.aborted) {
      turnEvent({ type: 'turn.cancelled', ...origin });
    } else if (error instanceof TurnFailure) {
      turnEvent({ type: 'turn.failed', code: error.code, message: error.message, ...origin });
    } else {
      diag(`internal error: ${error?.stack ?? error}`);
      turnEvent({ type: 'turn.failed', code: 'internal_error', message: String(error?.message ?? error), ...origin });
    }
  }
}

function addUsage(total, step) {
  if (!step) return;
  if (Number.isInteger(step.prompt_tokens)) total.input_tokens = (total.input_tokens ?? 0) + step.prompt_tokens;
  if (Number.isInteger(step.completion_tokens)) total.output_tokens = (total.output_tokens ?? 0) + step.completion_tokens;
}

function historyBytes(session) {
  return Buffer.byteLength(JSON.stringify(session.history), 'utf8');
}

function junkLine(bytes) {
  const head = '{"type":"fake.junk","padding":"';
  const tail = '"}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

// ---- the model --------------------------------------------------------------------------------

const TOOL_DEFINITIONS = [
  {
    type: 'function',
    function: {
      name: 'write',
      description: 'Write a whole file in the workspace. mode "create" fails if the file exists, "replace" if it does not.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path.' },
          content: { type: 'string', description: 'The full new file text.' },
          mode: { type: 'string', enum: ['create', 'replace'] },
          expected_sha256: { type: 'string', description: 'Hex SHA-256 the current file must have (replace only).' },
        },
        required: ['path', 'content', 'mode'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read',
      description: 'Read a file in the workspace.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path.' },
          offset: { type: 'integer', minimum: 0, description: 'Byte offset.' },
          limit: { type: 'integer', minimum: 1, description: 'Bytes to read.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'bash',
      description: 'Run a command with /bin/bash -lc in the workspace.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string' },
          timeout_seconds: { type: 'integer', minimum: 1 },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
  },
];

function systemPrompt(session) {
  if (session.systemPrompt !== undefined) return session.systemPrompt;
  return `You are SCV, a coding agent. The workspace is ${session.cwd}. Use the tools to search, construct and verify.`;
}

/** One streamed chat completion: assistant.delta per content chunk; resolves with the step's text, tool calls and usage. */
async function requestModel(session, turn, turnEvent) {
  const body = {
    model: session.model,
    messages: [{ role: 'system', content: systemPrompt(session) }, ...session.history],
    stream: true,
    stream_options: { include_usage: true },
  };
  if (!session.noTools) body.tools = TOOL_DEFINITIONS;
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (process.env.OPENAI_API_KEY) headers.authorization = `Bearer ${process.env.OPENAI_API_KEY}`;
  const url = `${session.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: turn.controller.signal });
  } catch (error) {
    if (turn.controller.signal.aborted) throw new TurnCancelled();
    throw new TurnFailure('provider_error', `provider request failed: ${error?.cause?.message ?? error?.message ?? error}`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new TurnFailure('provider_error', `provider returned HTTP ${response.status}: ${text.slice(0, 500)}`);
  }
  const answer = { text: '', toolCalls: [], usage: undefined };
  const calls = [];
  let sawDone = false;
  try {
    for await (const data of sseData(response.body)) {
      if (data === '[DONE]') {
        sawDone = true;
        break;
      }
      let chunk;
      try {
        chunk = JSON.parse(data);
      } catch {
        throw new TurnFailure('provider_error', `provider sent an invalid stream event: ${data.slice(0, 200)}`);
      }
      if (chunk.error) throw new TurnFailure('provider_error', `provider error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`);
      if (chunk.usage) answer.usage = chunk.usage;
      const delta = chunk.choices?.[0]?.delta;
      if (!delta) continue;
      if (typeof delta.content === 'string' && delta.content !== '') {
        answer.text += delta.content;
        const line = turnEvent({ type: 'assistant.delta', content: delta.content });
        if (faults.duplicateDelta === true && !session.duplicatedDelta) {
          session.duplicatedDelta = true;
          writeLine(line);
        }
      }
      for (const part of delta.tool_calls ?? []) {
        const index = Number.isInteger(part.index) ? part.index : calls.length;
        const call = (calls[index] ??= { id: '', name: '', arguments: '' });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.name += part.function.name;
        if (typeof part.function?.arguments === 'string') call.arguments += part.function.arguments;
      }
    }
  } catch (error) {
    if (turn.controller.signal.aborted) throw new TurnCancelled();
    if (error instanceof TurnFailure) throw error;
    throw new TurnFailure('provider_error', `provider stream failed: ${error?.cause?.message ?? error?.message ?? error}`);
  }
  if (turn.controller.signal.aborted) throw new TurnCancelled();
  if (!sawDone && calls.length === 0 && answer.text === '')
    throw new TurnFailure('provider_error', 'provider stream ended without an answer');
  answer.toolCalls = calls.filter(Boolean);
  if (answer.toolCalls.length > MAX_TOOL_CALLS_PER_RESPONSE) {
    throw new TurnFailure(
      'tool_limit',
      `the model asked for ${answer.toolCalls.length} tool calls; the limit is ${MAX_TOOL_CALLS_PER_RESPONSE}`,
    );
  }
  for (const call of answer.toolCalls) {
    if (Buffer.byteLength(call.arguments, 'utf8') > MAX_TOOL_ARGUMENT_BYTES) {
      throw new TurnFailure('response_limit', `tool call ${call.id} has arguments over ${MAX_TOOL_ARGUMENT_BYTES} bytes`);
    }
    if (!call.id) call.id = `call_${randomBytes(6).toString('hex')}`;
  }
  return answer;
}

async function* sseData(body) {
  const decoder = new TextDecoder();
  let buffer = '';
  let data = [];
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  }
  if (data.length > 0) yield data.join('\n');
}

// ---- tools ------------------------------------------------------------------------------------

const SECRET_PATH = /(^|\/)\.env[^/]*$|credential|private_key|\.pem$|\.key$/i;

/** The gate for one call: proposed → (approval) → started → completed, exactly as the server reports it. */
async function runToolCall(session, turn, call, turnEvent) {
  let args;
  let argsError;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    args = call.arguments;
    argsError = `arguments are not valid JSON: ${error.message}`;
  }
  turnEvent({ type: 'tool.proposed', call_id: call.id, name: call.name, arguments: args });
  const complete = (result) => {
    turnEvent({
      type: 'tool.completed',
      call_id: call.id,
      name: call.name,
      success: result.success,
      output: result.output,
      truncated: result.truncated ?? false,
      ...(result.error ? { error: result.error } : {}),
    });
    return result;
  };
  const tool = TOOLS[call.name];
  if (!tool) return complete({ success: false, output: `unknown tool: ${call.name}`, error: 'unknown_tool' });
  if (argsError === undefined) argsError = tool.validate(args, session);
  if (argsError !== undefined) return complete({ success: false, output: `invalid arguments: ${argsError}`, error: 'invalid_arguments' });
  const risk = tool.risk(args);
  const approved = await decide(session, turn, call, risk, tool.summary(args), turnEvent);
  if (!approved) return complete({ success: false, output: DENIED_OUTPUT, error: 'denied' });
  turnEvent({ type: 'tool.started', call_id: call.id, name: call.name });
  let result;
  try {
    result = await tool.run(args, { session, turn, progress: (text) => turnEvent({ type: 'tool.progress', call_id: call.id, text }) });
  } catch (error) {
    result = { success: false, output: String(error?.message ?? error), error: 'failed' };
  }
  if (turn.controller.signal.aborted) {
    complete({ success: false, output: 'cancelled', error: 'cancelled' });
    throw new TurnCancelled();
  }
  return complete(result);
}

/** The server's approval policy: read_only runs; on-risk asks for the rest; always asks for everything; never denies the rest. */
async function decide(session, turn, call, risk, summary, turnEvent) {
  const policy = options.approvalPolicy;
  if (risk === 'read_only' && policy !== 'always') return true;
  if (policy === 'never') return false;
  if (turn.origin) return session.autoApprove; // unattended (background) turns never ask a person
  const approvalId = randomUUID();
  const answer = new Promise((resolveAnswer, rejectAnswer) => {
    const onAbort = () => {
      turn.approvals.delete(approvalId);
      rejectAnswer(new TurnCancelled());
    };
    if (turn.controller.signal.aborted) return onAbort();
    turn.controller.signal.addEventListener('abort', onAbort, { once: true });
    turn.approvals.set(approvalId, (approved) => {
      turn.controller.signal.removeEventListener('abort', onAbort);
      resolveAnswer(approved);
    });
  });
  turnEvent({ type: 'approval.requested', approval_id: approvalId, call_id: call.id, name: call.name, risk, cwd: session.cwd, summary });
  return answer;
}

const TOOLS = {
  write: {
    validate(args, session) {
      const shape = checkShape(args, { path: 'string', content: 'string', mode: 'string', expected_sha256: 'string?' });
      if (shape) return shape;
      if (args.mode !== 'create' && args.mode !== 'replace') return `mode must be "create" or "replace", not ${JSON.stringify(args.mode)}`;
      return confinementError(session, args.path);
    },
    risk: () => 'filesystem',
    summary: (args) => `${args.mode === 'create' ? 'Create' : 'Replace'} ${args.path} (${Buffer.byteLength(args.content, 'utf8')} bytes)`,
    async run(args, { session }) {
      const target = confinedPath(session, args.path);
      const exists = existsSync(target);
      if (args.mode === 'create' && exists) return failed(`${args.path} already exists (mode "create")`);
      if (args.mode === 'replace' && !exists) return failed(`${args.path} does not exist (mode "replace")`);
      if (exists && !lstatSync(target).isFile()) return failed(`${args.path} is not a regular file`);
      if (args.expected_sha256 !== undefined) {
        const current = exists ? sha256(readFileSync(target)) : '';
        if (current !== args.expected_sha256.toLowerCase())
          return failed(`${args.path} changed: its sha256 is ${current || '(no file)'}, not ${args.expected_sha256}`);
      }
      mkdirSync(dirname(target), { recursive: true });
      const temp = join(dirname(target), `.${basename(target)}.scv-${randomBytes(6).toString('hex')}.tmp`);
      const bytes = Buffer.from(args.content, 'utf8');
      try {
        writeFileSync(temp, bytes, { flag: 'wx' });
        renameSync(temp, target);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
      return { success: true, output: JSON.stringify({ path: args.path, bytes: bytes.length, sha256: sha256(bytes) }) };
    },
  },

  read: {
    validate(args, session) {
      const shape = checkShape(args, { path: 'string', offset: 'integer?', limit: 'integer?' });
      if (shape) return shape;
      if ((args.offset ?? 0) < 0 || (args.limit ?? 1) < 1) return 'offset must be ≥ 0 and limit ≥ 1';
      return confinementError(session, args.path);
    },
    risk: (args) => (SECRET_PATH.test(args.path) ? 'filesystem' : 'read_only'),
    summary: (args) => `Read ${args.path}`,
    async run(args, { session }) {
      const target = confinedPath(session, args.path);
      if (!existsSync(target)) return failed(`${args.path} does not exist`);
      if (!statSync(target).isFile()) return failed(`${args.path} is not a regular file`);
      const all = readFileSync(target);
      const offset = Math.min(args.offset ?? 0, all.length);
      const limit = args.limit ?? DEFAULT_READ_LIMIT;
      const slice = all.subarray(offset, offset + limit);
      const truncated = offset + slice.length < all.length;
      return {
        success: true,
        output: JSON.stringify({ path: args.path, content: slice.toString('utf8'), total_bytes: all.length, offset, truncated }),
      };
    },
  },

  bash: {
    validate(args) {
      const shape = checkShape(args, { command: 'string', timeout_seconds: 'integer?' });
      if (shape) return shape;
      if (args.command.trim() === '') return 'command is empty';
      if (args.timeout_seconds !== undefined && args.timeout_seconds < 1) return 'timeout_seconds must be ≥ 1';
      return undefined;
    },
    risk: () => 'process',
    summary: (args) => `Run shell command: ${args.command}`,
    run: runBash,
  },
};

function failed(message) {
  return { success: false, output: message, error: 'failed' };
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function checkShape(args, shape) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return 'arguments must be a JSON object';
  for (const key of Object.keys(args)) if (!(key in shape)) return `unknown field \`${key}\``;
  for (const [key, kind] of Object.entries(shape)) {
    const optional = kind.endsWith('?');
    const type = optional ? kind.slice(0, -1) : kind;
    const value = args[key];
    if (value === undefined) {
      if (!optional) return `missing field \`${key}\``;
      continue;
    }
    const ok = type === 'integer' ? Number.isInteger(value) : typeof value === type;
    if (!ok) return `field \`${key}\` must be ${type === 'integer' ? 'an integer' : `a ${type}`}`;
  }
  return undefined;
}

/** Workspace-relative paths only; `..` and symlinks may not lead outside the workspace. */
function confinementError(session, path) {
  if (path === '' || isAbsolute(path)) return `path must be relative to the workspace: ${path}`;
  try {
    confinedPath(session, path);
    return undefined;
  } catch (error) {
    return error.message;
  }
}

function confinedPath(session, path) {
  const target = resolve(session.cwd, path);
  if (!isInside(session.cwd, target)) throw new Error(`path escapes the workspace: ${path}`);
  let existing = target;
  while (!existsSync(existing)) existing = dirname(existing);
  const real = realpathSync(existing);
  if (!isInside(session.cwd, real)) throw new Error(`path escapes the workspace: ${path}`);
  return target;
}

function isInside(root, p) {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** `/bin/bash -lc` in its own process group (so cancel reaches every child), progress lines at ≤ 2/s. */
function runBash(args, { session, turn, progress }) {
  return new Promise((resolveRun) => {
    const child = spawn('/bin/bash', ['-lc', args.command], { cwd: session.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    let size = 0;
    let truncated = false;
    let partialLine = '';
    let pendingLines = [];
    let lastProgressAt = 0;
    let progressTimer;
    let timedOut = false;
    let killTimer;

    const flushProgress = () => {
      progressTimer = undefined;
      if (pendingLines.length === 0 || turn.controller.signal.aborted) return;
      const lines = [];
      let bytes = 0;
      for (const line of pendingLines.slice().reverse()) {
        const clipped = clipBytes(redact(line), PROGRESS_LINE_MAX_BYTES);
        if (bytes + Buffer.byteLength(clipped) + 1 > PROGRESS_MAX_BYTES) break;
        lines.unshift(clipped);
        bytes += Buffer.byteLength(clipped) + 1;
      }
      pendingLines = [];
      lastProgressAt = Date.now();
      if (lines.length > 0) progress(lines.join('\n'));
    };
    const scheduleProgress = () => {
      if (progressTimer) return;
      const wait = Math.max(0, lastProgressAt + PROGRESS_INTERVAL_MS - Date.now());
      progressTimer = setTimeout(flushProgress, wait);
    };
    const onData = (chunk) => {
      if (size < MAX_TOOL_OUTPUT_BYTES) {
        const room = MAX_TOOL_OUTPUT_BYTES - size;
        chunks.push(chunk.subarray(0, room));
        size += Math.min(room, chunk.length);
        if (chunk.length > room) truncated = true;
      } else truncated = true;
      const text = partialLine + chunk.toString('utf8');
      const lines = text.split('\n');
      partialLine = lines.pop() ?? '';
      const complete = lines.filter((l) => l.trim() !== '');
      if (complete.length > 0) {
        pendingLines.push(...complete);
        scheduleProgress();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const killGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    const timeoutSeconds = args.timeout_seconds ?? DEFAULT_BASH_TIMEOUT_SECONDS;
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutSeconds * 1000);
    const onAbort = () => stop();
    turn.controller.signal.addEventListener('abort', onAbort, { once: true });
    activeChildren.add(child);

    child.on('error', (error) => {
      clearTimeout(timeout);
      turn.controller.signal.removeEventListener('abort', onAbort);
      activeChildren.delete(child);
      resolveRun({ success: false, output: `could not start /bin/bash: ${error.message}`, error: 'unavailable' });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      clearTimeout(progressTimer);
      turn.controller.signal.removeEventListener('abort', onAbort);
      activeChildren.delete(child);
      if (partialLine.trim() !== '') pendingLines.push(partialLine);
      const status = signal ? `killed by ${signal}` : `exit status ${code}`;
      const output = `${status}\n${redact(Buffer.concat(chunks).toString('utf8'))}`;
      const finish = () => {
        flushProgress();
        if (timedOut) resolveRun({ success: false, output: `timed out after ${timeoutSeconds} s\n${output}`, truncated, error: 'limit' });
        else if (code === 0) resolveRun({ success: true, output, truncated });
        else resolveRun({ success: false, output, truncated, error: 'failed' });
      };
      // The last lines keep the 2-per-second pace too; a cancelled call shows no more progress and ends at once.
      const wait = lastProgressAt + PROGRESS_INTERVAL_MS - Date.now();
      if (pendingLines.length > 0 && wait > 0 && !turn.controller.signal.aborted) setTimeout(finish, wait);
      else finish();
    });
  });
}

const activeChildren = new Set();

function redact(text) {
  return text.replace(/\b(sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{16,})/g, '[REDACTED]');
}

function clipBytes(text, max) {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  return (
    buf
      .subarray(0, max - 3)
      .toString('utf8')
      .replace(/\uFFFD$/, '') + '...'
  );
}

// ---- stdin, frames, shutdown ------------------------------------------------------------------

let pendingBuffers = [];
let pendingBytes = 0;
let discardingOversized = false;

function onStdin(chunk) {
  let start = 0;
  while (start < chunk.length) {
    const nl = chunk.indexOf(0x0a, start);
    const end = nl < 0 ? chunk.length : nl;
    const piece = chunk.subarray(start, end);
    if (!discardingOversized) {
      pendingBuffers.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes > MAX_CLIENT_FRAME_BYTES) {
        discardingOversized = true;
        pendingBuffers = [];
      }
    }
    if (nl < 0) break;
    if (discardingOversized) {
      sendError(null, 'invalid_request', `client frame exceeds ${MAX_CLIENT_FRAME_BYTES} bytes`);
    } else {
      processLine(Buffer.concat(pendingBuffers).toString('utf8'));
    }
    pendingBuffers = [];
    pendingBytes = 0;
    discardingOversized = false;
    start = nl + 1;
  }
}

function processLine(line) {
  if (connection.closing) return;
  const text = line.replace(/\r$/, '');
  if (text.trim() === '') return;
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (error) {
    sendError(null, 'invalid_json', `invalid JSON: ${error.message}`);
    return;
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    sendError(null, 'invalid_json', 'invalid message: expected a JSON object');
    return;
  }
  try {
    handleMessage(msg);
  } catch (error) {
    const requestId = typeof msg.request_id === 'string' ? msg.request_id : null;
    if (error instanceof ProtocolError) sendError(requestId, error.code, error.message);
    else {
      diag(`internal error: ${error?.stack ?? error}`);
      sendError(requestId, 'internal_error', String(error?.message ?? error));
    }
  }
}

/** EOF or a fatal error: cancel the active turn, give it EOF_GRACE_MS to unwind, then exit. */
async function shutdown(code) {
  if (connection.closing) return;
  connection.closing = true;
  const turn = connection.session?.active;
  if (turn) {
    turn.controller.abort();
    await Promise.race([turn.done, new Promise((r) => setTimeout(r, EOF_GRACE_MS).unref())]);
  }
  for (const child of activeChildren) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.stdout.write('', () => process.exit(code));
}

process.stdin.on('data', onStdin);
process.stdin.on('end', () => void shutdown(0));
process.stdin.on('error', () => void shutdown(0));
process.stdout.on('error', (error) => {
  // A broken pipe: the client is gone, which is the same as EOF.
  if (error.code === 'EPIPE') void shutdown(0);
});
