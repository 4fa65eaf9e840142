import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialSessionState } from '../../shared/sessionState';
import { SessionStore } from '../state/sessionStore';
import { IntentContext, type IntentCore } from './intentContext';
import { sessionIntents } from './sessionIntents';
import { agentFacet } from './facets/agentFacet';
import { answerFacet } from './facets/answerFacet';
import { approvalFacet } from './facets/approvalFacet';
import { checkpointFacet } from './facets/checkpointFacet';
import { conversationFacet } from './facets/conversationFacet';
import { goalFacet } from './facets/goalFacet';
import { memoryFacet } from './facets/memoryFacet';
import { modelFacet } from './facets/modelFacet';
import { pluginFacet } from './facets/pluginFacet';
import { providerFacet } from './facets/providerFacet';
import { queueFacet } from './facets/queueFacet';
import { reportFacet } from './facets/reportFacet';
import { sessionFileFacet } from './facets/sessionFileFacet';
import { settingsFacet } from './facets/settingsFacet';
import { skillFacet } from './facets/skillFacet';
import { turnFacet } from './facets/turnFacet';

function context(): IntentContext {
  const store = new SessionStore(initialSessionState('catalyst'), () => {});
  // No core is running: each intent refuses before it would send.
  const core: IntentCore = {
    send: () => false,
    channel: undefined,
    sessionFile: undefined,
    holdsPrompts: false,
    holdPrompt: () => false,
    onEvent: () => ({ dispose() {} }),
  };
  return new IntentContext(
    store,
    core,
    'catalyst',
    () => {},
    () => {},
  );
}

// The session's intents are the facets spread into one object: a name in two facets would silently lose one of them.
test('every intent belongs to exactly one facet, and the session has each of them', () => {
  const ctx = context();
  const facets = {
    turn: turnFacet(ctx),
    queue: queueFacet(ctx),
    answer: answerFacet(ctx),
    agent: agentFacet(ctx, turnFacet(ctx)),
    goal: goalFacet(ctx),
    plugin: pluginFacet(ctx),
    skill: skillFacet(ctx),
    model: modelFacet(ctx),
    approval: approvalFacet(ctx),
    settings: settingsFacet(ctx),
    sessionFile: sessionFileFacet(ctx),
    conversation: conversationFacet(ctx),
    memory: memoryFacet(ctx),
    report: reportFacet(ctx),
    checkpoint: checkpointFacet(ctx),
    provider: providerFacet(ctx),
  };
  const owner = new Map<string, string>();
  for (const [facet, intents] of Object.entries(facets)) {
    for (const name of Object.keys(intents)) {
      assert.equal(owner.get(name), undefined, `${name} is in both ${owner.get(name)} and ${facet}`);
      owner.set(name, facet);
    }
  }
  const session = sessionIntents(ctx);
  assert.deepEqual(Object.keys(session).sort(), [...owner.keys()].sort());
  for (const [name, intent] of Object.entries(session)) assert.equal(typeof intent, 'function', name);
});
