import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState, type CoreKind, type SessionState } from '../../shared/sessionState';
import { coreContextValues } from './coreContextValues';

const withCore = (kind: CoreKind, capabilities: string[], status: SessionState['core']['status'] = 'ready'): SessionState => ({
  ...initialSessionState(kind),
  core: { kind, status, capabilities },
});

describe('coreContextValues', () => {
  test('an SCV server with its advertised capabilities: no checkpoints, undo, steer, sessions or proposal editing', () => {
    assert.deepEqual(coreContextValues(withCore('scv', ['server_queue', 'tool_progress']), 'scv'), {
      kind: 'scv',
      canCheckpoint: false,
      canUndo: false,
      canSteer: false,
      canSwitchSessions: false,
      canEditProposal: false,
      canRunSubagents: false,
      canUseSkills: false,
      canUseGoals: false,
    });
  });

  test('an SCV server that advertises a capability gets it, as in the chat', () => {
    const v = coreContextValues(withCore('scv', ['server_queue', 'steer', 'checkpoint']), 'scv');
    assert.equal(v.canSteer, true);
    assert.equal(v.canCheckpoint, true);
    assert.equal(v.canUndo, false);
  });

  test('the embedded core: what protocol v2 implies plus what it advertises (subagents only once it says so)', () => {
    const v = coreContextValues(
      withCore('embedded', ['steer', 'thinking', 'sessions', 'undo', 'checkpoint', 'approval_edited_content']),
      'embedded',
    );
    assert.deepEqual(v, {
      kind: 'embedded',
      canCheckpoint: true,
      canUndo: true,
      canSteer: true,
      canSwitchSessions: true,
      canEditProposal: true,
      canRunSubagents: false,
      canUseSkills: true,
      canUseGoals: true,
    });
    assert.equal(coreContextValues(withCore('embedded', ['steer', 'subagents']), 'embedded').canRunSubagents, true);
  });

  test('an upstream core without checkpoint or edited content: only those are off (it has subagents unannounced)', () => {
    const v = coreContextValues(withCore('catalyst', ['steer', 'thinking', 'sessions', 'undo']), 'catalyst');
    assert.deepEqual(v, {
      kind: 'catalyst',
      canCheckpoint: false,
      canUndo: true,
      canSteer: true,
      canSwitchSessions: true,
      canEditProposal: false,
      canRunSubagents: true,
      canUseSkills: true,
      canUseGoals: true,
    });
  });

  test("before the handshake (no core, or starting): expected from the kind, the state's kind first", () => {
    assert.deepEqual(coreContextValues(undefined, 'embedded'), {
      kind: 'embedded',
      canCheckpoint: true,
      canUndo: true,
      canSteer: true,
      canSwitchSessions: true,
      canEditProposal: true,
      canRunSubagents: true,
      canUseSkills: true,
      canUseGoals: true,
    });
    assert.deepEqual(coreContextValues(undefined, 'scv'), {
      kind: 'scv',
      canCheckpoint: false,
      canUndo: false,
      canSteer: false,
      canSwitchSessions: false,
      canEditProposal: false,
      canRunSubagents: false,
      canUseSkills: false,
      canUseGoals: false,
    });
    assert.equal(coreContextValues(withCore('scv', [], 'starting'), 'embedded').canUndo, false);
    assert.equal(coreContextValues(withCore('embedded', [], 'crashed'), 'scv').canCheckpoint, true);
  });
});
