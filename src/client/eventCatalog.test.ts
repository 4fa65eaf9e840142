import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TYPES, type EventType } from '../protocol';
import { initialSessionState } from '../shared/sessionState';
import { IGNORED_EVENTS } from './ignoredEvents';
import { REDUCED_EVENT_TYPES, sessionReducer } from './sessionReducer';

const ROOT = join(import.meta.dirname, '..', '..');
const ignored = IGNORED_EVENTS as { readonly [K in EventType]?: string };
const reduced = new Set<string>(REDUCED_EVENT_TYPES);

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
      assert.ok(readFileSync(join(ROOT, path), 'utf8').includes(`'${type}'`), `${type}: ${path} mentions '${type}'`);
    }
  });

  test('an ignored event, however complete, leaves the session model as it was', () => {
    const s = initialSessionState();
    for (const type of Object.keys(ignored)) {
      assert.equal(sessionReducer(s, { type, message: 'x', models: [], entries: [] } as never), s, type);
    }
  });
});
