import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTestWorkspace } from '../../../test/support/testWorkspace';
import { FINISH_MESSAGE, finishTool } from './finishTool';

test("finish succeeds with upstream's message, ends the turn and targets nothing", async () => {
  const ws = makeTestWorkspace();
  try {
    const outcome = await finishTool.execute({}, ws.context());
    assert.deepEqual(outcome, { ok: true, output: FINISH_MESSAGE, status: 'success', fileChanges: [], endsTurn: true });
    assert.equal(FINISH_MESSAGE, 'This turn has finished');
    assert.deepEqual(finishTool.targets({}), { paths: [] });
  } finally {
    ws.cleanup();
  }
});
