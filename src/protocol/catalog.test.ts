// The catalogs at run time. What the types of our extensions must accept and refuse is checked by the compiler in
// catalog.typecheck.ts (npm run typecheck).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_TYPES, EXTENSION_COMMAND_TYPES, capabilityForCommand, isCommandType } from './commands';
import { EVENT_TYPES, EXTENSION_EVENT_TYPES, clientAcceptsEvent, isEventType } from './events';
import {
  CAPABILITY_CHECKPOINT_FILES,
  CAPABILITY_EDITED_CONTENT,
  CAPABILITY_PROJECT_RULES,
  CLIENT_CAPABILITIES,
  CORE_VERSION,
  MIN_CLIENT,
  PROTOCOL_VERSION,
  UPSTREAM_CAPABILITIES,
  UPSTREAM_CLIENT_CAPABILITIES,
} from './version';

describe('command catalog', () => {
  test("lists upstream's 73 command types plus our 5 extensions, all unique", () => {
    assert.equal(COMMAND_TYPES.length, 78);
    assert.equal(new Set(COMMAND_TYPES).size, 78);
    assert.deepEqual(
      [...EXTENSION_COMMAND_TYPES],
      ['delete_checkpoint', 'checkpoint_changes', 'checkpoint_file', 'list_approval_escalations', 'clear_approval_escalations'],
    );
    for (const type of EXTENSION_COMMAND_TYPES) assert.ok(COMMAND_TYPES.includes(type), type);
    assert.equal(COMMAND_TYPES.filter((t) => !EXTENSION_COMMAND_TYPES.includes(t)).length, 73, "upstream's catalog");
  });

  test('holds the commands of every group of upstream §1.3', () => {
    const sample = [
      'init',
      'send',
      'steer',
      'abort',
      'clear_queue',
      'reset',
      'clear',
      'undo',
      'compact',
      'user_bash',
      'approve',
      'ask_reply',
      'sudo_reply',
      'intercom_reply',
      'set_approval',
      'set_config',
      'get_vision_config',
      'set_vision_config',
      'login_oauth',
      'oauth_code',
      'add_custom_provider',
      'discover_provider_models',
      'list_marketplace_skills',
      'accept_skill_disclaimer',
      'search_marketplace_skills',
      'install_marketplace_skill',
      'update_marketplace_skill',
      'remove_marketplace_skill',
      'get_sandbox_status',
      'prepare_sandbox',
      'reset_sandbox',
      'plugin_trust_prompt',
      'plugin_trust_decisions',
      'cancel_goal',
      'goal_status',
      'approve_goal_plan',
      'revise_goal',
      'refresh_memory',
      'pin_session',
      'list_plugin_commands',
      'runtime_status',
    ];
    for (const type of sample) assert.ok(COMMAND_TYPES.includes(type as never), type);
  });

  test('isCommandType recognises listed types only', () => {
    assert.equal(isCommandType('send'), true);
    assert.equal(isCommandType('delta'), false);
    assert.equal(isCommandType('toString'), false);
    assert.equal(isCommandType('__proto__'), false);
  });

  test('the catalog cannot be modified', () => {
    assert.throws(() => (COMMAND_TYPES as string[]).push('x'), TypeError);
  });
});

describe('event catalog', () => {
  test("lists upstream's 105 event types plus our 6 extensions, all unique", () => {
    assert.equal(EVENT_TYPES.length, 111);
    assert.equal(new Set(EVENT_TYPES).size, 111);
    assert.deepEqual(
      [...EXTENSION_EVENT_TYPES],
      ['checkpoint_deleted', 'checkpoint_changes', 'checkpoint_file', 'subagent_delta', 'rules', 'approval_escalations'],
    );
    for (const type of EXTENSION_EVENT_TYPES) assert.ok(EVENT_TYPES.includes(type), type);
    assert.equal(EVENT_TYPES.filter((t) => !EXTENSION_EVENT_TYPES.includes(t)).length, 105, "upstream's catalog");
  });

  test('holds the events of every group of upstream §1.4', () => {
    const sample = [
      'ready',
      'protocol_hello',
      'session_recovered',
      'runtime_status',
      'run_cancelled',
      'reset',
      'error',
      'info',
      'delta',
      'thinking',
      'tool_call',
      'tool_result',
      'done',
      'aborted',
      'steer',
      'tool_call_args',
      'file_change',
      'http_retry',
      'stuck_nudge',
      'summary_required',
      'advisor_note',
      'advisor_status',
      'approval_request',
      'approval_expired',
      'intercom_message',
      'bash_execution',
      'provider_models_preview',
      'umans_conc',
      'session_change_failed',
      'checkpoints',
      'checkpoint_created',
      'worktree_seeded',
      'audit',
      'plugins_list',
      'plugin_commands',
      'skill_marketplace_error',
      'subagent_tool_call',
      'goal_state',
      'goal_completion_summary',
      'work_state',
      'sandbox_prepare_progress',
      'sandbox_error',
    ];
    for (const type of sample) assert.ok(EVENT_TYPES.includes(type as never), type);
    // The old protocol doc's names are not upstream's.
    assert.ok(!EVENT_TYPES.includes('plugin_list' as never));
  });

  test('isEventType recognises listed types only', () => {
    assert.equal(isEventType('tool_result'), true);
    assert.equal(isEventType('send'), false);
    assert.equal(isEventType('future_optional_event'), false);
  });
});

describe('versions and capabilities', () => {
  test('match upstream', () => {
    assert.equal(PROTOCOL_VERSION, 2);
    assert.equal(CORE_VERSION, '0.2.0');
    assert.equal(MIN_CLIENT, '0.2.0');
    assert.equal(UPSTREAM_CAPABILITIES.length, 12);
    assert.equal(new Set(UPSTREAM_CAPABILITIES).size, 12);
    assert.ok(UPSTREAM_CAPABILITIES.includes('stale_event_rejection'));
    assert.deepEqual([...UPSTREAM_CLIENT_CAPABILITIES], ['run_ids', 'session_ids', 'event_sequence']);
    assert.ok(!(UPSTREAM_CAPABILITIES as readonly string[]).includes(CAPABILITY_EDITED_CONTENT));
    assert.equal(CAPABILITY_EDITED_CONTENT, 'approval_edited_content');
    assert.equal(CAPABILITY_CHECKPOINT_FILES, 'checkpoint_files');
    assert.ok(!(UPSTREAM_CAPABILITIES as readonly string[]).includes(CAPABILITY_CHECKPOINT_FILES));
  });
});

describe('our own events and commands, by client capability', () => {
  const upstreamClient = new Set<string>(UPSTREAM_CLIENT_CAPABILITIES);
  const ourClient = new Set<string>(CLIENT_CAPABILITIES);

  test("an upstream client is sent upstream's event types only", () => {
    assert.deepEqual(EVENT_TYPES.filter((type) => !clientAcceptsEvent(type, upstreamClient)).sort(), [...EXTENSION_EVENT_TYPES].sort());
    assert.ok(clientAcceptsEvent('future_upstream_event', upstreamClient), 'not ours: never withheld');
  });

  test("our client announces every capability of our events and commands, upstream's first", () => {
    assert.deepEqual(CLIENT_CAPABILITIES.slice(0, 3), [...UPSTREAM_CLIENT_CAPABILITIES]);
    assert.deepEqual(
      EVENT_TYPES.filter((type) => !clientAcceptsEvent(type, ourClient)),
      [],
    );
    for (const type of EXTENSION_COMMAND_TYPES) assert.ok(ourClient.has(capabilityForCommand(type)!), type);
    assert.equal(capabilityForCommand('send'), undefined);
    assert.equal(capabilityForCommand('constructor'), undefined);
  });

  test('each event of ours needs only its own capability', () => {
    assert.equal(clientAcceptsEvent('rules', new Set([CAPABILITY_PROJECT_RULES])), true);
    assert.equal(clientAcceptsEvent('subagent_delta', new Set([CAPABILITY_PROJECT_RULES])), false);
    assert.equal(clientAcceptsEvent('constructor', new Set()), true, 'an own key only');
  });
});
