import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { UiStateStore } from './uiState';

function fakeApi(initial: unknown) {
  const saved: unknown[] = [];
  return {
    saved,
    api: { postMessage: () => undefined, getState: () => initial, setState: (s: unknown) => saved.push(structuredClone(s)) },
  };
}

test('restored state is sanitized: wrong types are dropped, never trusted', () => {
  const { api } = fakeApi({
    draft: 42,
    expanded: { a: true, b: 'yes' },
    scroll: { session: 's', index: 1.5, offset: 0, stick: false },
    items: ['transcript?'],
  });
  const ui = new UiStateStore(api);
  assert.deepEqual(ui.current, { draft: '', expanded: { a: true }, scroll: undefined });
  assert.deepEqual(new UiStateStore(fakeApi(undefined).api).current, { draft: '', expanded: {}, scroll: undefined });
});

test('changes are saved once per burst, after a short delay', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { api, saved } = fakeApi({ draft: 'hi', expanded: {} });
    const ui = new UiStateStore(api);
    ui.update({ draft: 'hel' });
    ui.update({ draft: 'hello' });
    ui.setExpanded('tool:1', true);
    assert.equal(saved.length, 0);
    mock.timers.tick(300);
    assert.deepEqual(saved, [{ draft: 'hello', expanded: { 'tool:1': true }, scroll: undefined }]);
    assert.equal(ui.expandedChoice('tool:1'), true);
    assert.equal(ui.expandedChoice('tool:2'), undefined);
  } finally {
    mock.timers.reset();
  }
});

test('the expanded map keeps only the most recent 500 choices', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const ui = new UiStateStore(fakeApi(undefined).api);
    for (let i = 0; i < 520; i++) ui.setExpanded(`id${i}`, i % 2 === 0);
    assert.equal(Object.keys(ui.current.expanded).length, 500);
    assert.equal(ui.expandedChoice('id0'), undefined);
    assert.equal(ui.expandedChoice('id519'), false);
  } finally {
    mock.timers.reset();
  }
});
