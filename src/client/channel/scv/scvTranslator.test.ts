import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from '../../../protocol';
import { ApprovalRules } from './approvalRules';
import { ARGS_PREVIEW_CHARS, CANCELLED_TURN_NOTE, TRUNCATED_OUTPUT_NOTE } from './scvEventMapping';
import { NOTHING_TO_STOP, QUEUE_CONFLICT_MESSAGE, ScvTranslator } from './scvTranslator';
import { NOW, SESSION, TranslatorHarness, WORKSPACE, only, types } from '../../../../test/support/scvTestHarness';

const T1 = 'turn-1';

function ready(opts: ConstructorParameters<typeof TranslatorHarness>[0] = {}): TranslatorHarness {
  const h = new TranslatorHarness(opts);
  h.handshake();
  return h;
}

/** Ready, a prompt sent while idle and its turn started (request c-3, turn T1). */
function running(opts: ConstructorParameters<typeof TranslatorHarness>[0] = {}): TranslatorHarness {
  const h = ready(opts);
  h.record(h.t.onCommand({ type: 'send', prompt: 'hi', model: 'gpt-test' }));
  h.turnEvent('turn.started', T1);
  return h;
}

function command(h: TranslatorHarness, cmd: Command) {
  return h.record(h.t.onCommand(cmd));
}

describe('ScvTranslator: handshake', () => {
  test('initialize v3 → session.start{cwd} → session.started + queue.snapshot → protocol_hello, ready, queue', () => {
    const h = new TranslatorHarness();
    const begin = h.record(h.t.begin());
    assert.deepEqual(
      begin.messages.map((m) => m.message),
      [{ type: 'initialize', request_id: 'c-1', protocol_version: 3, client: { name: 'catalyst-vscode', version: '1.2.3' } }],
    );
    assert.ok(begin.messages[0].line.endsWith('\n'));
    const init = h.server({
      type: 'initialized',
      request_id: 'c-1',
      protocol_version: 3,
      server: { name: 'scv-server', version: '0.3.14' },
    });
    assert.deepEqual(
      init.messages.map((m) => m.message),
      [{ type: 'session.start', request_id: 'c-2', cwd: WORKSPACE }],
    );
    assert.deepEqual(init.events, []);
    const started = h.server({
      type: 'session.started',
      request_id: 'c-2',
      session_id: SESSION,
      cwd: WORKSPACE,
      model: 'gpt-test',
      context_max_tokens: 128_000,
      max_server_frame_bytes: 4_194_304,
    });
    assert.equal(started.maxServerFrameBytes, 4_194_304);
    assert.deepEqual(started.events, [], 'ready waits for the queue snapshot');
    assert.equal(h.t.ready, false);
    const snap = h.event('queue.snapshot', {
      request_id: 'c-2',
      entries: [{ queue_id: 'q1', revision: 2, prompt: 'later', submitter: 'x' }],
      paused: true,
    });
    assert.deepEqual(types(snap), ['protocol_hello', 'ready', 'client:server_queue']);
    assert.equal(h.t.ready, true);
    const hello = only<Record<string, unknown>>(snap, 'protocol_hello');
    assert.equal(hello.version, '0.3.14');
    assert.equal(hello.protocol_version, 2);
    assert.deepEqual(hello.capabilities, ['server_queue', 'tool_progress']);
    const readyEvent = only<Record<string, unknown>>(snap, 'ready');
    assert.deepEqual(readyEvent.models, [{ id: 'gpt-test', name: 'gpt-test', context_window: 128_000 }]);
    assert.equal(readyEvent.authed, true);
    assert.equal(readyEvent.anyLoggedIn, true);
    assert.equal(readyEvent.workspace, WORKSPACE);
    assert.equal(readyEvent.provider, 'scv');
    assert.deepEqual(readyEvent.providers, []);
    assert.equal(readyEvent.approval, 'destructive');
    assert.equal(readyEvent.session_id, SESSION);
    assert.deepEqual(only(snap, 'client:server_queue'), {
      type: 'client:server_queue',
      queue: { entries: [{ id: 'q1', revision: 2, prompt: 'later' }], paused: true },
    });
  });

  test('the approval policy the server runs with becomes the approval mode', () => {
    const cases = [
      ['on-risk', 'destructive'],
      ['always', 'always'],
      ['never', 'never'],
      [undefined, 'destructive'],
    ] as const;
    for (const [policy, mode] of cases) {
      const snap = new TranslatorHarness({ policy }).handshake();
      assert.equal(only<Record<string, unknown>>(snap, 'ready').approval, mode, String(policy));
    }
  });

  test('a version mismatch fails the handshake naming both versions and the server', () => {
    const h = new TranslatorHarness();
    h.record(h.t.begin());
    const step = h.server({
      type: 'initialized',
      request_id: 'c-1',
      protocol_version: 4,
      server: { name: 'scv-server', version: '0.5.0' },
    });
    assert.ok(step.handshakeError);
    assert.match(step.handshakeError, /scv-server 0\.5\.0/);
    assert.match(step.handshakeError, /version 4/);
    assert.match(step.handshakeError, /version 3/);
    assert.deepEqual(step.messages, [], 'no session.start');
    const later = h.server({ type: 'session.started', request_id: 'c-2', session_id: SESSION, model: 'm' });
    assert.deepEqual(later.events, []);
  });

  test("a fatal error in the handshake fails it with the server's message", () => {
    const h = new TranslatorHarness();
    h.record(h.t.begin());
    const step = h.server({
      type: 'error',
      request_id: 'c-1',
      code: 'version_mismatch',
      message: 'client speaks 3, server 2',
      fatal: true,
    });
    assert.match(step.handshakeError ?? '', /client speaks 3, server 2 \[version_mismatch\]/);
  });

  test('a refused session.start fails the handshake', () => {
    const h = new TranslatorHarness();
    h.record(h.t.begin());
    h.server({ type: 'initialized', request_id: 'c-1', protocol_version: 3, server: { name: 'scv-server', version: '0.3.14' } });
    const step = h.server({ type: 'error', request_id: 'c-2', code: 'invalid_request', message: 'cwd is not a directory', fatal: false });
    assert.match(step.handshakeError ?? '', /scv-server 0\.3\.14.*cwd is not a directory/);
  });

  test('commands before the handshake is through are refused', () => {
    const h = new TranslatorHarness();
    h.record(h.t.begin());
    const step = h.t.onCommand({ type: 'send', prompt: 'x', model: 'm' });
    assert.equal(step.accepted, false);
    assert.deepEqual(types(step), ['error']);
    assert.deepEqual(step.messages, []);
    assert.equal(h.t.queuePause(true).accepted, false);
  });
});

describe('ScvTranslator: a turn', () => {
  test('send → turn.start and shows nothing; turn.started answering it shows the prompt; every turn event carries run_id and session_id', () => {
    const h = ready();
    const sent = command(h, { type: 'send', prompt: 'hello', model: 'gpt-test', reasoning_effort: 'high' });
    assert.equal(sent.accepted, true);
    assert.deepEqual(sent.events, [], 'the server decides whether it runs now or waits: nothing is shown yet');
    assert.deepEqual(h.lastSent(), { type: 'turn.start', request_id: 'c-3', session_id: SESSION, prompt: 'hello' });
    assert.equal(h.t.busy, true);
    const started = h.turnEvent('turn.started', T1);
    assert.deepEqual(started.events, [{ type: 'client:prompt', text: 'hello', images: 0 }]);
    assert.equal(h.t.currentTurnId, T1);
    assert.deepEqual(h.turnEvent('turn.started', T1).events, [], 'a repeated turn.started does not show the prompt again');
    const delta = h.turnEvent('assistant.delta', T1, { content: 'Hel' });
    assert.deepEqual(delta.events, [{ type: 'delta', text: 'Hel', session_id: SESSION, run_id: T1 }]);
  });

  test('assistant.completed adds a tail the stream missed, ignores an equal text, and only logs a different one', () => {
    const h = running();
    h.turnEvent('assistant.delta', T1, { content: 'Hel' });
    const tail = h.turnEvent('assistant.completed', T1, { content: 'Hello.' });
    assert.deepEqual(tail.events, [{ type: 'delta', text: 'lo.', session_id: SESSION, run_id: T1 }]);
    h.turnEvent('assistant.delta', T1, { content: 'Step two' });
    assert.deepEqual(h.turnEvent('assistant.completed', T1, { content: 'Step two' }).events, [], 'each step is compared on its own');
    h.turnEvent('assistant.delta', T1, { content: 'abc' });
    const differs = h.turnEvent('assistant.completed', T1, { content: 'xyz' });
    assert.deepEqual(differs.events, []);
    assert.ok(differs.logs.some((l) => l.includes('differs')));
    assert.deepEqual(h.turnEvent('assistant.completed', T1, { content: '' }).events, [], 'a tools-only step');
  });

  test('tool.proposed → tool_call with the arguments as JSON', () => {
    const h = running();
    const step = h.turnEvent('tool.proposed', T1, {
      call_id: 'call-1',
      name: 'write',
      arguments: { path: 'a.txt', content: 'x\n', mode: 'create' },
    });
    assert.deepEqual(step.events, [
      {
        type: 'tool_call',
        id: 'call-1',
        name: 'write',
        args: '{"path":"a.txt","content":"x\\n","mode":"create"}',
        session_id: SESSION,
        run_id: T1,
      },
    ]);
  });

  test('tool.started is only logged; tool.progress becomes client:tool_progress', () => {
    const h = running();
    const started = h.turnEvent('tool.started', T1, { call_id: 'call-1', name: 'bash' });
    assert.deepEqual(started.events, []);
    assert.ok(started.logs.some((l) => l.includes('bash')));
    const progress = h.turnEvent('tool.progress', T1, { call_id: 'call-1', text: 'compiling\nlinking' });
    assert.deepEqual(progress.events, [{ type: 'client:tool_progress', id: 'call-1', text: 'compiling\nlinking' }]);
  });

  test('tool.completed → tool_result, its status from the error kind', () => {
    const h = running();
    const result = (fields: Record<string, unknown>) =>
      only<Record<string, unknown>>(
        h.turnEvent('tool.completed', T1, { call_id: 'c', name: 'bash', truncated: false, ...fields }),
        'tool_result',
      );
    assert.deepEqual(result({ success: true, output: 'ok' }), {
      type: 'tool_result',
      id: 'c',
      ok: true,
      output: 'ok',
      status: 'success',
      session_id: SESSION,
      run_id: T1,
    });
    assert.equal(result({ success: false, output: 'tool call denied by policy or user', error: 'denied' }).status, 'denied');
    assert.equal(result({ success: false, output: '', error: 'cancelled' }).status, 'cancelled');
    for (const error of ['failed', 'limit', 'unavailable', 'invalid_arguments', 'unknown_tool', undefined]) {
      const r = result({ success: false, output: 'boom', error });
      assert.equal(r.status, 'failed', String(error));
      assert.equal(r.ok, false);
    }
    assert.equal(result({ success: true, output: 'head', truncated: true }).output, `head\n${TRUNCATED_OUTPUT_NOTE}`);
  });

  test("turn.completed → done; its usage adds up and answers stats (tokens_in: the last turn's input_tokens)", () => {
    const h = running();
    const stats = (): Record<string, unknown> => {
      const step = command(h, { type: 'stats' });
      assert.equal(step.accepted, true);
      assert.deepEqual(step.messages, []);
      return only<Record<string, unknown>>(step, 'stats');
    };
    const before = stats();
    assert.equal(before.tokens_in, 0, 'no input size known before a turn reported usage');
    assert.equal(before.total_in, 0);
    const done = h.turnEvent('turn.completed', T1, { steps: 2, usage: { input_tokens: 100, output_tokens: 20 } });
    assert.deepEqual(done.events, [{ type: 'done', session_id: SESSION, run_id: T1 }]);
    assert.equal(h.t.busy, false);
    assert.equal(stats().tokens_in, 100);
    command(h, { type: 'send', prompt: 'again', model: 'm' });
    h.turnEvent('turn.started', 'turn-2', {}, 'c-4');
    h.turnEvent('turn.completed', 'turn-2', { steps: 1, usage: {} }, 'c-4');
    let e = stats();
    assert.equal(e.total_in, 100);
    assert.equal(e.tokens_out, 20);
    assert.equal(e.tokens_total, 120);
    assert.equal(e.turns, 2);
    assert.equal(e.tokens_in, 100, 'a turn without input_tokens keeps the last known input size');
    assert.equal(e.cached_tokens, 0);
    command(h, { type: 'send', prompt: 'third', model: 'm' });
    h.turnEvent('turn.started', 'turn-3', {}, 'c-5');
    h.turnEvent('turn.completed', 'turn-3', { steps: 1, usage: { input_tokens: 250, output_tokens: 5 } }, 'c-5');
    e = stats();
    assert.equal(e.tokens_in, 250, "the last turn's input_tokens, not the sum");
    assert.equal(e.total_in, 350, 'the sum over the turns');
    assert.equal(e.tokens_out, 25);
    assert.equal(e.tokens_total, 375);
    assert.equal(e.turns, 3);
  });

  test('turn.cancelled → aborted, then the rollback note', () => {
    const h = running();
    const step = h.turnEvent('turn.cancelled', T1);
    assert.deepEqual(step.events, [
      { type: 'aborted', session_id: SESSION, run_id: T1 },
      { type: 'info', message: CANCELLED_TURN_NOTE, session_id: SESSION, run_id: T1 },
    ]);
    assert.equal(h.t.busy, false);
  });

  test('turn.failed → error with its code, then done', () => {
    const h = running();
    const step = h.turnEvent('turn.failed', T1, { code: 'step_limit', message: 'the turn reached 32 steps' });
    assert.deepEqual(step.events, [
      { type: 'error', code: 'step_limit', message: 'the turn reached 32 steps', session_id: SESSION, run_id: T1 },
      { type: 'done', session_id: SESSION, run_id: T1 },
    ]);
  });

  test('context.compacted → compacted; session.trimmed → info', () => {
    const h = running();
    const compacted = only<Record<string, unknown>>(
      h.turnEvent('context.compacted', T1, { before_tokens: 9000, after_tokens: 3000, removed_messages: 12 }),
      'compacted',
    );
    assert.deepEqual(compacted, {
      type: 'compacted',
      before_tokens: 9000,
      after_tokens: 3000,
      within_limit: true,
      summary_chars: 0,
      scope: 'session',
      session_id: SESSION,
      run_id: T1,
    });
    const trimmed = h.event('session.trimmed', { request_id: 'c-3', removed_messages: 4, history_bytes: 100 });
    assert.deepEqual(trimmed.events, [
      { type: 'info', message: 'SCV removed 4 older messages to stay within its history limit.', session_id: SESSION },
    ]);
  });

  test('background.reported and background.updated → info summaries', () => {
    const h = ready();
    const reported = only<Record<string, unknown>>(
      h.event('background.reported', {
        code: 'provider_error',
        message: 'provider down',
        attempts: 3,
        reports: [{ job: 'job-1', agent: 'codex', task: 'fix it', status: 'completed', reply: 'Done:\n  fixed the bug' }],
      }),
      'info',
    );
    assert.match(String(reported.message), /Background job results \(the model could not report them: provider down\)/);
    assert.match(String(reported.message), /job-1 \(codex\): completed — Done: fixed the bug/);
    const updated = only<Record<string, unknown>>(
      h.event('background.updated', {
        outcomes: [{ job: 'job-2', review: { outcome: 'no_verdict' }, landing: { status: 'not_landed' } }],
      }),
      'info',
    );
    assert.match(String(updated.message), /job-2: review no verdict, landing not landed/);
  });

  test('a server-started turn is announced with client:server_turn (origin, or a background: request id)', () => {
    const h = ready();
    const byOrigin = h.event('turn.started', {
      request_id: 'background:1',
      turn_id: 'bg-1',
      origin: { kind: 'background', jobs: ['job-1', 'job-2'] },
    });
    assert.deepEqual(byOrigin.events, [{ type: 'client:server_turn', runId: 'bg-1', reason: 'background jobs job-1, job-2 reported' }]);
    h.event('turn.completed', { request_id: 'background:1', turn_id: 'bg-1', steps: 1, usage: {} });
    const byRequest = h.event('turn.started', { request_id: 'background:2', turn_id: 'bg-2' });
    assert.deepEqual(byRequest.events, [{ type: 'client:server_turn', runId: 'bg-2', reason: 'background jobs reported' }]);
  });
});

describe('ScvTranslator: approvals', () => {
  function awaitingApproval(h: TranslatorHarness, fields: Record<string, unknown> = {}) {
    h.turnEvent('tool.proposed', T1, { call_id: 'call-1', name: 'bash', arguments: { command: 'make test' } });
    return h.turnEvent('approval.requested', T1, {
      approval_id: 'ap-1',
      call_id: 'call-1',
      name: 'bash',
      risk: 'process',
      cwd: WORKSPACE,
      summary: 'Run shell command: make test',
      ...fields,
    });
  }

  test('approval.requested → approval_request with the proposed arguments, summary and both risks', () => {
    const h = running();
    const step = awaitingApproval(h);
    assert.deepEqual(step.events, [
      {
        type: 'approval_request',
        request_id: 'ap-1',
        tool_call_id: 'call-1',
        tool: 'bash',
        risk: 'destructive',
        requested_permission: 'destructive',
        created_at: NOW,
        args: '{"command":"make test"}',
        summary: 'Run shell command: make test',
        scv_risk: 'process',
        session_id: SESSION,
        run_id: T1,
      },
    ]);
    assert.deepEqual(step.messages, []);
  });

  test('a read_only risk is readonly; long arguments are previewed in at most 2000 characters', () => {
    const h = running();
    h.turnEvent('tool.proposed', T1, {
      call_id: 'call-2',
      name: 'write',
      arguments: { path: 'big.txt', content: 'y'.repeat(5000), mode: 'create' },
    });
    const write = only<Record<string, unknown>>(
      h.turnEvent('approval.requested', T1, {
        approval_id: 'ap-2',
        call_id: 'call-2',
        name: 'write',
        risk: 'filesystem',
        summary: 'Create big.txt (5000 bytes)',
      }),
      'approval_request',
    );
    assert.equal(String(write.args).length, ARGS_PREVIEW_CHARS);
    assert.ok(String(write.args).startsWith('{"path":"big.txt"'));
    h.turnEvent('tool.proposed', T1, { call_id: 'call-3', name: 'read', arguments: { path: 'a' } });
    const read = only<Record<string, unknown>>(
      h.turnEvent('approval.requested', T1, { approval_id: 'ap-3', call_id: 'call-3', name: 'read', risk: 'read_only', summary: 'Read a' }),
      'approval_request',
    );
    assert.equal(read.risk, 'readonly');
    assert.equal(read.scv_risk, 'read_only');
  });

  test('yes and no → approval.resolve approved true / false', () => {
    const h = running();
    awaitingApproval(h);
    assert.equal(command(h, { type: 'approve', request_id: 'ap-1', decision: 'yes' }).accepted, true);
    assert.deepEqual(h.lastSent(), {
      type: 'approval.resolve',
      request_id: 'c-4',
      session_id: SESSION,
      approval_id: 'ap-1',
      approved: true,
    });
    awaitingApproval(h, { approval_id: 'ap-2' });
    command(h, { type: 'approve', request_id: 'ap-2', decision: 'no' });
    assert.deepEqual(h.lastSent(), {
      type: 'approval.resolve',
      request_id: 'c-5',
      session_id: SESSION,
      approval_id: 'ap-2',
      approved: false,
    });
    assert.equal(h.rules.size, 0, 'a plain yes remembers nothing');
  });

  test('allow_session approves and answers later matching requests itself, with an info instead of a card', () => {
    const h = running();
    awaitingApproval(h);
    command(h, { type: 'approve', request_id: 'ap-1', decision: 'allow_session' });
    assert.deepEqual(h.lastSent(), {
      type: 'approval.resolve',
      request_id: 'c-4',
      session_id: SESSION,
      approval_id: 'ap-1',
      approved: true,
    });
    const again = awaitingApproval(h, { approval_id: 'ap-2' });
    assert.deepEqual(again.events, [
      { type: 'info', message: 'Approved by your rule for bash (this session)', session_id: SESSION, run_id: T1 },
    ]);
    assert.deepEqual(
      again.messages.map((m) => m.message),
      [{ type: 'approval.resolve', request_id: 'c-5', session_id: SESSION, approval_id: 'ap-2', approved: true }],
    );
    const otherRisk = awaitingApproval(h, { approval_id: 'ap-3', risk: 'network' });
    assert.deepEqual(types(otherRisk), ['approval_request'], 'the rule is for the same tool and risk only');
  });

  test('always survives a new connection; allow_session does not', () => {
    const rules = new ApprovalRules();
    const h = running({ rules });
    awaitingApproval(h);
    command(h, { type: 'approve', request_id: 'ap-1', decision: 'always' });
    h.turnEvent('tool.proposed', T1, { call_id: 'call-9', name: 'write', arguments: {} });
    h.turnEvent('approval.requested', T1, { approval_id: 'ap-9', call_id: 'call-9', name: 'write', risk: 'filesystem', summary: '' });
    command(h, { type: 'approve', request_id: 'ap-9', decision: 'allow_session' });
    rules.startConnection();
    const next = running({ rules });
    const bash = awaitingApproval(next);
    assert.deepEqual(bash.events, [{ type: 'info', message: 'Approved by your rule for bash (always)', session_id: SESSION, run_id: T1 }]);
    const write = next.turnEvent('approval.requested', T1, {
      approval_id: 'ap-10',
      call_id: 'call-10',
      name: 'write',
      risk: 'filesystem',
      summary: '',
    });
    assert.deepEqual(types(write), ['approval_request']);
  });

  test('allow_pattern and an edited proposal are refused locally; nothing is sent', () => {
    const h = running();
    awaitingApproval(h);
    const pattern = command(h, { type: 'approve', request_id: 'ap-1', decision: 'allow_pattern', pattern: 'make *' });
    assert.equal(pattern.accepted, false);
    assert.equal(only<Record<string, unknown>>(pattern, 'error').code, 'unsupported');
    const edited = command(h, { type: 'approve', request_id: 'ap-1', decision: 'yes', edited_content: 'mine' });
    assert.equal(edited.accepted, false);
    assert.deepEqual(only(edited, 'error'), {
      type: 'error',
      code: 'unsupported',
      message: 'SCV cannot apply an edited proposal',
      session_id: SESSION,
    });
    assert.equal(h.sent.filter((m) => m.type === 'approval.resolve').length, 0);
    assert.equal(h.rules.size, 0);
  });
});

describe('ScvTranslator: abort, clear, unsupported commands', () => {
  test('abort cancels the running turn', () => {
    const h = running();
    const step = command(h, { type: 'abort' });
    assert.equal(step.accepted, true);
    assert.deepEqual(h.lastSent(), { type: 'turn.cancel', request_id: 'c-4', session_id: SESSION, turn_id: T1 });
  });

  test('abort before turn.started is sent as soon as the turn starts', () => {
    const h = ready();
    command(h, { type: 'send', prompt: 'hi', model: 'm' });
    const step = command(h, { type: 'abort' });
    assert.equal(step.accepted, true);
    assert.deepEqual(step.messages, []);
    const started = h.turnEvent('turn.started', T1);
    assert.deepEqual(
      started.messages.map((m) => m.message),
      [{ type: 'turn.cancel', request_id: 'c-4', session_id: SESSION, turn_id: T1 }],
    );
    assert.deepEqual(
      started.events,
      [{ type: 'client:prompt', text: 'hi', images: 0 }],
      'the turn did start: its prompt shows, then its cancellation',
    );
  });

  test('abort with nothing running says so', () => {
    const h = ready();
    const step = command(h, { type: 'abort' });
    assert.deepEqual(step.events, [{ type: 'info', message: NOTHING_TO_STOP, session_id: SESSION }]);
    assert.deepEqual(step.messages, []);
  });

  test('abort leaves queued prompts alone', () => {
    const h = running();
    command(h, { type: 'send', prompt: 'next', model: 'm' });
    h.event('queue.enqueued', { request_id: 'c-4', entry: { queue_id: 'q1', revision: 1, prompt: 'next', submitter: 'c' }, position: 0 });
    command(h, { type: 'abort' });
    assert.deepEqual(
      h.sent.filter((m) => m.type === 'queue.remove'),
      [],
    );
    assert.equal(h.t.queueEntries().length, 1);
  });

  test('clear and reset → session.clear; session.cleared → reset and an empty queue', () => {
    for (const type of ['clear', 'reset'] as const) {
      const h = ready();
      h.event('queue.snapshot', { entries: [{ queue_id: 'q1', revision: 1, prompt: 'p', submitter: 'c' }], paused: false });
      assert.equal(command(h, { type }).accepted, true);
      assert.deepEqual(h.lastSent(), { type: 'session.clear', request_id: 'c-3', session_id: SESSION });
      const cleared = h.event('session.cleared', { request_id: 'c-3' });
      assert.deepEqual(cleared.events, [
        { type: 'reset', session_id: SESSION },
        { type: 'client:server_queue', queue: { entries: [], paused: false } },
      ]);
    }
  });

  test('clear during a turn is refused with turn_active', () => {
    const h = running();
    const step = command(h, { type: 'clear' });
    assert.equal(step.accepted, false);
    assert.equal(only<Record<string, unknown>>(step, 'error').code, 'turn_active');
    assert.notEqual(h.lastSent()?.type, 'session.clear');
  });

  test('session.cleared zeroes the usage totals', () => {
    const h = running();
    h.turnEvent('turn.completed', T1, { steps: 1, usage: { input_tokens: 5, output_tokens: 6 } });
    h.event('session.cleared', { request_id: 'c-9' });
    const stats = only<Record<string, unknown>>(command(h, { type: 'stats' }), 'stats');
    assert.equal(stats.total_in, 0);
    assert.equal(stats.turns, 0);
  });

  test('commands SCV cannot map are refused as unsupported, naming what is missing', () => {
    const h = running();
    const commands: Command[] = [
      { type: 'steer', prompt: 'x', model: 'm' },
      { type: 'undo' },
      { type: 'list_sessions' },
      { type: 'new_session' },
      { type: 'create_checkpoint' },
      { type: 'set_key', api_key: 'k' },
      { type: 'refresh_models' },
      { type: 'compact' },
      { type: 'save_memory', text: 'n' },
      { type: 'set_approval', mode: 'never' },
      { type: 'context' },
    ];
    for (const cmd of commands) {
      const step = command(h, cmd);
      assert.equal(step.accepted, false, cmd.type);
      const error = only<Record<string, unknown>>(step, 'error');
      assert.equal(error.code, 'unsupported');
      assert.match(String(error.message), /is not available with an SCV server$/);
      assert.deepEqual(step.messages, []);
    }
    assert.match(
      String(only<Record<string, unknown>>(command(h, { type: 'steer', prompt: 'x', model: 'm' }), 'error').message),
      /^Steering a running turn/,
    );
  });
});

describe('ScvTranslator: sending prompts', () => {
  test('a prompt sent while a turn runs is queued by the server: the queue shows it, then it opens the next turn', () => {
    const h = running();
    command(h, { type: 'send', prompt: 'next one', model: 'm' });
    const queued = h.event('queue.enqueued', {
      request_id: 'c-4',
      entry: { queue_id: 'q1', revision: 1, prompt: 'next one', submitter: 'catalyst' },
      position: 0,
    });
    assert.deepEqual(
      queued.events,
      [{ type: 'client:server_queue', queue: { entries: [{ id: 'q1', revision: 1, prompt: 'next one' }], paused: false } }],
      'only the queue: no prompt, no aborted',
    );
    h.turnEvent('turn.completed', T1, { steps: 1, usage: {} });
    const dequeued = h.event('queue.dequeued', { request_id: 'c-4', queue_id: 'q1', turn_id: 'turn-2' });
    assert.deepEqual(dequeued.events, [
      { type: 'client:server_queue', queue: { entries: [], paused: false } },
      { type: 'client:prompt', text: 'next one', images: 0 },
    ]);
    assert.deepEqual(h.turnEvent('turn.started', 'turn-2', {}, 'c-4').events, [], 'the prompt is already shown');
  });

  test('a prompt sent during a turn that the server starts at once (the turn just ended) is shown when it starts', () => {
    const h = running();
    command(h, { type: 'send', prompt: 'follow-up', model: 'm' });
    h.turnEvent('turn.completed', T1, { steps: 1, usage: {} });
    const started = h.turnEvent('turn.started', 'turn-2', {}, 'c-4');
    assert.deepEqual(started.events, [{ type: 'client:prompt', text: 'follow-up', images: 0 }]);
  });

  test('a prompt over 256 KiB is refused before sending with only an error: nothing was shown, so no aborted and no prompt', () => {
    const h = ready();
    const step = command(h, { type: 'send', prompt: 'x'.repeat(256 * 1024 + 1), model: 'm' });
    assert.equal(step.accepted, false);
    assert.deepEqual(step.messages, []);
    assert.deepEqual(types(step), ['error']);
    assert.equal(only<Record<string, unknown>>(step, 'error').code, 'prompt_too_large');
    assert.equal(h.t.busy, false);
  });

  test('a frame over 1 MiB is refused before sending with only an error', () => {
    const h = ready();
    const step = command(h, { type: 'send', prompt: '\u0002'.repeat(200_000), model: 'm' });
    assert.equal(step.accepted, false);
    assert.deepEqual(step.messages, []);
    assert.deepEqual(types(step), ['error'], 'no aborted, no client:prompt');
    assert.equal(h.t.busy, false);
    assert.equal(only<Record<string, unknown>>(step, 'error').code, 'frame_too_large');
    assert.match(String(only<Record<string, unknown>>(step, 'error').message), /^The turn\.start message is .*at most 1 MiB/);
  });

  test('images are refused with only an error, idle or during a turn: SCV attachments are files on the server host', () => {
    for (const h of [ready(), running()]) {
      const before = h.sent.length;
      const step = command(h, { type: 'send', prompt: 'see', model: 'm', images: ['data:image/png;base64,AAAA'] });
      assert.equal(step.accepted, false);
      assert.deepEqual(types(step), ['error'], 'nothing was shown, so no aborted and no prompt');
      assert.equal(only<Record<string, unknown>>(step, 'error').code, 'unsupported');
      assert.equal(h.sent.length, before, 'no turn.start');
    }
  });

  test('a turn.start the server refuses gives only the error: its prompt was never shown, and never is', () => {
    const h = ready();
    command(h, { type: 'send', prompt: 'hi', model: 'm' });
    const step = h.server({ type: 'error', request_id: 'c-3', code: 'queue_limit', message: 'the queue is full', fatal: false });
    assert.deepEqual(step.events, [{ type: 'error', code: 'queue_limit', message: 'the queue is full', session_id: SESSION }]);
    assert.equal(h.t.busy, false);
    assert.deepEqual(h.turnEvent('turn.started', T1).events, [], 'a turn.started naming the refused request shows nothing');
  });
});

describe('ScvTranslator: the server queue', () => {
  function withQueue(): TranslatorHarness {
    const h = new TranslatorHarness();
    h.handshake({
      entries: [
        { queue_id: 'q1', revision: 3, prompt: 'one', submitter: 'c' },
        { queue_id: 'q2', revision: 1, prompt: 'two', submitter: 'c' },
        { queue_id: 'q3', revision: 7, prompt: 'three', submitter: 'c' },
      ],
    });
    return h;
  }

  test('edit → queue.update with the mirrored revision', () => {
    const h = withQueue();
    const step = h.record(h.t.queueEdit('q1', 'ONE'));
    assert.equal(step.accepted, true);
    assert.deepEqual(h.lastSent(), {
      type: 'queue.update',
      request_id: 'c-3',
      session_id: SESSION,
      queue_id: 'q1',
      revision: 3,
      prompt: 'ONE',
    });
    assert.equal(h.t.queueEntries()[0].prompt, 'one', 'the mirror changes only when the server says so');
    const updated = h.event('queue.updated', { request_id: 'c-3', entry: { queue_id: 'q1', revision: 4, prompt: 'ONE', submitter: 'c' } });
    assert.deepEqual(only<Record<string, unknown>>(updated, 'client:server_queue').queue, {
      entries: [
        { id: 'q1', revision: 4, prompt: 'ONE' },
        { id: 'q2', revision: 1, prompt: 'two' },
        { id: 'q3', revision: 7, prompt: 'three' },
      ],
      paused: false,
    });
  });

  test('move → queue.move; queue.moved reorders with the new revision', () => {
    const h = withQueue();
    assert.equal(h.record(h.t.queueMove('q3', 'q1')).accepted, true);
    assert.deepEqual(h.lastSent(), {
      type: 'queue.move',
      request_id: 'c-3',
      session_id: SESSION,
      queue_id: 'q3',
      revision: 7,
      before_queue_id: 'q1',
    });
    h.record(h.t.queueMove('q1', null));
    assert.deepEqual(h.lastSent(), {
      type: 'queue.move',
      request_id: 'c-4',
      session_id: SESSION,
      queue_id: 'q1',
      revision: 3,
      before_queue_id: null,
    });
    const moved = h.event('queue.moved', { request_id: 'c-3', queue_id: 'q3', position: 0, revision: 8 });
    assert.deepEqual(only<Record<string, unknown>>(moved, 'client:server_queue').queue, {
      entries: [
        { id: 'q3', revision: 8, prompt: 'three' },
        { id: 'q1', revision: 3, prompt: 'one' },
        { id: 'q2', revision: 1, prompt: 'two' },
      ],
      paused: false,
    });
  });

  test('remove → queue.remove; queue.removed drops the entry', () => {
    const h = withQueue();
    h.record(h.t.queueRemove('q2'));
    assert.deepEqual(h.lastSent(), { type: 'queue.remove', request_id: 'c-3', session_id: SESSION, queue_id: 'q2', revision: 1 });
    const removed = h.event('queue.removed', { request_id: 'c-3', queue_id: 'q2', revision: 2 });
    assert.deepEqual(
      h.t.queueEntries().map((e) => e.id),
      ['q1', 'q3'],
    );
    assert.deepEqual(types(removed), ['client:server_queue']);
  });

  test('pause → session.pause; session.paused shows in the queue', () => {
    const h = withQueue();
    h.record(h.t.queuePause(true));
    assert.deepEqual(h.lastSent(), { type: 'session.pause', request_id: 'c-3', session_id: SESSION, paused: true });
    const paused = h.event('session.paused', { request_id: 'c-3', paused: true });
    assert.equal((only<Record<string, unknown>>(paused, 'client:server_queue').queue as { paused: boolean }).paused, true);
  });

  test('operations on an entry that is not in the mirror are refused locally', () => {
    const h = withQueue();
    for (const step of [h.t.queueEdit('nope', 'x'), h.t.queueMove('nope', null), h.t.queueRemove('nope'), h.t.queueMove('q1', 'nope')]) {
      assert.equal(step.accepted, false);
      assert.deepEqual(step.messages, []);
      assert.equal(only<Record<string, unknown>>(step, 'error').code, 'queue_not_found');
    }
  });

  test('an edit over the prompt limit is refused locally', () => {
    const h = withQueue();
    const step = h.t.queueEdit('q1', 'x'.repeat(256 * 1024 + 1));
    assert.equal(step.accepted, false);
    assert.deepEqual(step.messages, []);
  });

  test('queue_conflict → the error the UI shows; the mirror stays until the next queue event', () => {
    const h = withQueue();
    h.record(h.t.queueEdit('q1', 'ONE'));
    const before = h.t.queueEntries().map((e) => ({ ...e }));
    const step = h.server({ type: 'error', request_id: 'c-3', code: 'queue_conflict', message: 'stale revision 3', fatal: false });
    assert.deepEqual(step.events, [{ type: 'error', code: 'queue_conflict', message: QUEUE_CONFLICT_MESSAGE, session_id: SESSION }]);
    assert.deepEqual(h.t.queueEntries(), before);
    h.event('queue.updated', { request_id: 'c-x', entry: { queue_id: 'q1', revision: 5, prompt: 'someone else', submitter: 'd' } });
    h.record(h.t.queueEdit('q1', 'ONE'));
    assert.equal((h.lastSent() as { revision: number }).revision, 5, 'a retry uses the refreshed revision');
  });

  test('clear_queue removes every mirrored entry with its revision; an empty queue says so', () => {
    const h = withQueue();
    const step = command(h, { type: 'clear_queue' });
    assert.equal(step.accepted, true);
    assert.deepEqual(
      step.messages.map((m) => m.message),
      [
        { type: 'queue.remove', request_id: 'c-3', session_id: SESSION, queue_id: 'q1', revision: 3 },
        { type: 'queue.remove', request_id: 'c-4', session_id: SESSION, queue_id: 'q2', revision: 1 },
        { type: 'queue.remove', request_id: 'c-5', session_id: SESSION, queue_id: 'q3', revision: 7 },
      ],
    );
    const empty = command(ready(), { type: 'clear_queue' });
    assert.deepEqual(empty.events, [{ type: 'info', message: 'queue already empty', session_id: SESSION }]);
  });

  test('queue.enqueued inserts at its position', () => {
    const h = withQueue();
    h.event('queue.enqueued', { request_id: 'c-9', entry: { queue_id: 'q0', revision: 1, prompt: 'zero', submitter: 'c' }, position: 1 });
    assert.deepEqual(
      h.t.queueEntries().map((e) => e.id),
      ['q1', 'q0', 'q2', 'q3'],
    );
  });
});

describe('ScvTranslator: seq, unknown events, errors', () => {
  test('a gap is logged once and the events still apply', () => {
    const h = running();
    h.skipSeq(2);
    const step = h.turnEvent('assistant.delta', T1, { content: 'x' });
    assert.deepEqual(types(step), ['delta']);
    assert.ok(step.logs.includes(`SCV events lost: expected seq ${h.lastSeq - 2}, got ${h.lastSeq}`));
    assert.deepEqual(h.turnEvent('assistant.delta', T1, { content: 'y' }).logs, []);
  });

  test('a duplicate is logged and dropped', () => {
    const h = running();
    const step = h.t.onServerValue({
      type: 'assistant.delta',
      request_id: 'c-3',
      session_id: SESSION,
      turn_id: T1,
      seq: h.lastSeq,
      content: 'again',
    });
    assert.deepEqual(step.events, []);
    assert.ok(step.logs.some((l) => l.startsWith('SCV duplicate event dropped')));
  });

  test('an unknown event type is skipped, logged once per type, and excuses one missing seq', () => {
    const h = running();
    const first = h.server({ type: 'turn.paused', session_id: SESSION });
    assert.deepEqual(first.events, []);
    assert.equal(first.logs.length, 1);
    assert.match(first.logs[0], /turn\.paused/);
    assert.deepEqual(h.server({ type: 'turn.paused' }).logs, [], 'the second one is quiet');
    h.skipSeq(2);
    const after = h.turnEvent('assistant.delta', T1, { content: 'x' });
    assert.deepEqual(after.logs, [], 'two unknown events without seq excuse two numbers');
    h.server({ type: 'future.thing', seq: h.lastSeq + 1 });
    h.skipSeq(1);
    assert.deepEqual(h.turnEvent('assistant.delta', T1, { content: 'y' }).logs, [], 'an unknown event with a seq just takes its number');
  });

  test('events without seq are not checked; values without a type are logged', () => {
    const h = running();
    assert.deepEqual(
      h.server({ type: 'error', code: 'internal_error', message: 'hiccup', fatal: false }).logs.filter((l) => l.includes('seq')),
      [],
    );
    assert.ok(h.server({ nope: 1 }).logs[0].includes('without a string "type"'));
  });

  test('a fatal error after the handshake is shown and ends the connection', () => {
    const h = running();
    const step = h.server({ type: 'error', code: 'internal_error', message: 'writer stalled', fatal: true });
    assert.equal(step.fatal, 'writer stalled [internal_error]');
    assert.match(String(only<Record<string, unknown>>(step, 'error').message), /writer stalled/);
  });

  test('an error answering a request becomes an error event; a cancel that came too late is only logged', () => {
    const h = running();
    command(h, { type: 'approve', request_id: 'gone', decision: 'yes' });
    const notFound = h.server({ type: 'error', request_id: 'c-4', code: 'approval_not_found', message: 'no such approval', fatal: false });
    assert.deepEqual(notFound.events, [{ type: 'error', code: 'approval_not_found', message: 'no such approval', session_id: SESSION }]);
    command(h, { type: 'abort' });
    const late = h.server({ type: 'error', request_id: 'c-5', code: 'turn_not_found', message: 'unknown turn', fatal: false });
    assert.deepEqual(late.events, []);
    assert.ok(late.logs.some((l) => l.includes('turn_not_found')));
  });

  test('events of a session before session.started are ignored', () => {
    const t = new ScvTranslator({ workspace: WORKSPACE, client: { name: 'c', version: '1' }, rules: new ApprovalRules() });
    t.begin();
    const step = t.onServerValue({ type: 'assistant.delta', seq: 1, turn_id: 'x', content: 'early' });
    assert.deepEqual(step.events, []);
  });
});
