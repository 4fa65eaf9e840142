import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { EVENT_TYPES, type EventType } from '../../protocol';
import { initialSessionState } from '../../shared/sessionState';
import { IGNORED_EVENTS } from './ignoredEvents';
import { REDUCED_EVENT_TYPES } from './sessionReducer';
import { SessionStore } from './sessionStore';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ignored = IGNORED_EVENTS as { readonly [K in EventType]?: string };
const reduced = new Set<string>(REDUCED_EVENT_TYPES);

/** The string literals of a TypeScript file's code: what a comment or a doc says does not count. */
function codeStringLiterals(path: string): Set<string> {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A session mid-run: the user's prompt is shown and the core's run `run-1` is streaming its answer. */
function storeMidRun(): SessionStore {
  const store = new SessionStore(initialSessionState(), () => {});
  store.dispatch({ type: 'client:prompt', text: 'Tidy the notes', images: 0 });
  store.dispatch({ type: 'delta', run_id: 'run-1', content: 'Looking at the notes' });
  return store;
}

/** An event of `type` with the wire envelope and the fields the reducers read elsewhere, all set. */
const everyField = (type: string, seq: number) => ({
  type,
  protocol_version: 2,
  session_id: 'session-other',
  seq,
  run_id: 'run-2',
  message: 'x',
  content: 'x',
  models: [{ id: 'm', name: 'M', provider: 'p' }],
  entries: [{ id: 'e', text: 'x' }],
  presets: [{ id: 'p', label: 'P' }],
});

describe('event catalog: every event of the mirror is reduced or deliberately ignored', () => {
  test('each event type is in exactly one of CORE_REDUCERS and IGNORED_EVENTS', () => {
    const neither = EVENT_TYPES.filter((t) => !reduced.has(t) && !Object.hasOwn(ignored, t));
    const both = EVENT_TYPES.filter((t) => reduced.has(t) && Object.hasOwn(ignored, t));
    assert.deepEqual(neither, [], 'neither reduced nor ignored');
    assert.deepEqual(both, [], 'reduced, yet listed as ignored: drop the IGNORED_EVENTS entry');
    assert.equal(reduced.size + Object.keys(ignored).length, EVENT_TYPES.length);
  });

  test('neither table names a type outside the mirror', () => {
    const known = new Set<string>(EVENT_TYPES);
    assert.deepEqual(
      [...reduced, ...Object.keys(ignored)].filter((t) => !known.has(t)),
      [],
    );
  });

  test('each reason is a sentence, not a placeholder', () => {
    for (const [type, reason] of Object.entries(ignored)) {
      assert.ok(reason.length >= 30, `${type}: the reason is too short to say why`);
      assert.match(reason, /^[A-Z'"].*[.)]$/s, `${type}: the reason is a sentence`);
      assert.doesNotMatch(reason, /\b(TODO|FIXME|TBD|XXX)\b|not shown yet/i, `${type}: the reason is a placeholder`);
    }
  });

  test('a reason that names its handler names a file that reads that event', () => {
    const handled = Object.entries(ignored).filter(([, reason]) => reason.startsWith('Handled by '));
    assert.ok(handled.length > 0);
    for (const [type, reason] of handled) {
      const path = /^Handled by (\S+?\.ts)\b/.exec(reason)?.[1];
      assert.ok(path, `${type}: "Handled by" names a .ts file`);
      assert.ok(existsSync(join(ROOT, path)), `${type}: ${path} exists`);
      assert.ok(codeStringLiterals(join(ROOT, path)).has(type), `${type}: ${path} has '${type}' in its code, not only a comment`);
    }
  });

  test('an ignored event, however complete, leaves a running session as it was and tells no listener', () => {
    const store = storeMidRun();
    const changed: string[] = [];
    store.onDidChange((_state, patches) => changed.push(`${patches.length} patches`));
    Object.keys(ignored).forEach((type, i) => {
      const before = store.state;
      store.dispatch(everyField(type, 100 + i));
      assert.equal(store.state, before, `${type} changed the session model`);
    });
    assert.deepEqual(changed, []);
    // The same look sees a change when there is one: a reduced event of the same shape is not lost on it.
    store.dispatch(everyField('info', 200));
    assert.equal(changed.length, 1, 'info, reduced, changes the model');
  });
});
