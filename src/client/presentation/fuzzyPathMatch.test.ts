import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzyScore, rankPaths } from './fuzzyPathMatch';

const PATHS = [
  'src/vscode/chatPanel.ts',
  'src/vscode/chatViewProvider.ts',
  'src/client/sessionController.ts',
  'src/shared/sessionState.ts',
  'README.md',
  'docs/architecture.md',
  'test/e2e/chat.e2e.test.ts',
];

describe('fuzzyScore', () => {
  test('matches the query characters in order, case-insensitively', () => {
    assert.notEqual(fuzzyScore('SCtrl', 'src/client/sessionController.ts'), undefined);
    assert.equal(fuzzyScore('zzz', 'src/client/sessionController.ts'), undefined);
    assert.equal(fuzzyScore('tsa', 'a.ts'), undefined, 'order matters');
  });

  test('an empty query matches everything', () => {
    assert.equal(fuzzyScore('', 'anything'), 0);
  });
});

describe('rankPaths', () => {
  test('file-name prefix matches come first', () => {
    assert.equal(rankPaths('chatpanel', PATHS, 5)[0], 'src/vscode/chatPanel.ts');
    assert.equal(rankPaths('readme', PATHS, 5)[0], 'README.md');
  });

  test('camel-case initials find the file', () => {
    assert.equal(rankPaths('sessCon', PATHS, 5)[0], 'src/client/sessionController.ts');
  });

  test('drops non-matches and respects the limit', () => {
    const ranked = rankPaths('session', PATHS, 1);
    assert.equal(ranked.length, 1);
    assert.ok(ranked[0].includes('session'));
    assert.deepEqual(rankPaths('qqq', PATHS, 10), []);
  });

  test('an empty query lists shorter paths first', () => {
    assert.deepEqual(rankPaths('', PATHS, 2), ['README.md', 'docs/architecture.md']);
  });
});
