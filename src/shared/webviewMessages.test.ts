import { APPROVAL_DECISIONS } from './sessionState';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHECKPOINT_ROW_ACTIONS,
  HOST_ACTIONS,
  MAX_IMAGES,
  MAX_IMAGE_URL,
  MAX_TEXT,
  TEST_IDS,
  validateWebviewMessage,
  type WebviewToHost,
} from './webviewMessages';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

/** One valid example of every message type the webview may send (the `satisfies` makes a new type fail to compile here). */
const VALID = {
  ready: [{ type: 'ready' }],
  resync: [
    { type: 'resync', lastSeq: 0 },
    { type: 'resync', lastSeq: 41 },
  ],
  send: [
    { type: 'send', text: 'hello', images: [] },
    {
      type: 'send',
      text: 'look',
      images: [PNG, 'data:image/jpeg;base64,/9j/4AAQ', 'data:image/webp;base64,UklGR', 'data:image/gif;base64,R0lGOD'],
    },
  ],
  steer: [{ type: 'steer', text: 'go left' }],
  abort: [{ type: 'abort' }],
  clearQueue: [{ type: 'clearQueue' }],
  userBash: [
    { type: 'userBash', command: 'git status', excludeFromContext: false },
    { type: 'userBash', command: 'ls', excludeFromContext: true },
  ],
  approve: [
    ...APPROVAL_DECISIONS.map((decision) => ({ type: 'approve' as const, requestId: 'apv-1-call_1', decision })),
    { type: 'approve', requestId: 'apv-2', decision: 'allow_pattern', pattern: 'npm test *' },
  ],
  askReply: [
    { type: 'askReply', requestId: 'ask-1', answers: { q1: 'yes', q2: '' } },
    { type: 'askReply', requestId: 'ask-2', answers: null },
  ],
  setModel: [
    { type: 'setModel', model: 'openrouter/anthropic/claude' },
    { type: 'setModel', model: 'qwen3-coder', provider: 'ollama' },
  ],
  setReasoning: [{ type: 'setReasoning', effort: 'high' }],
  setApprovalMode: [
    { type: 'setApprovalMode', mode: 'never' },
    { type: 'setApprovalMode', mode: 'destructive' },
    { type: 'setApprovalMode', mode: 'always' },
  ],
  slash: [
    { type: 'slash', name: 'compact', args: '' },
    { type: 'slash', name: 'model', args: 'gpt-x' },
    { type: 'slash', name: 'a-b9', args: 'x' },
  ],
  listSessions: [{ type: 'listSessions' }],
  newSession: [{ type: 'newSession' }],
  openSession: [{ type: 'openSession', path: '/home/u/.config/catalyst-code/sessions/abc/1.jsonl' }],
  renameSession: [
    { type: 'renameSession', path: '1.jsonl', title: 'Refactor' },
    { type: 'renameSession', path: '1.jsonl', title: '' },
  ],
  pinSession: [
    { type: 'pinSession', path: '1.jsonl', pinned: true },
    { type: 'pinSession', path: '1.jsonl', pinned: false },
  ],
  deleteSession: [{ type: 'deleteSession', path: '1.jsonl' }],
  complete: [
    { type: 'complete', requestId: 3, kind: 'file', query: 'src/ext' },
    { type: 'complete', requestId: 0, kind: 'slash', query: '' },
  ],
  copy: [
    { type: 'copy', text: 'const x = 1;' },
    { type: 'copy', text: '' },
  ],
  insertAtCursor: [{ type: 'insertAtCursor', text: 'x' }],
  openFile: [
    { type: 'openFile', path: 'src/a.ts' },
    { type: 'openFile', path: 'src/a.ts', line: 12 },
  ],
  openExternal: [
    { type: 'openExternal', url: 'https://doc.rust-lang.org/std/' },
    { type: 'openExternal', url: 'http://127.0.0.1:8080/page?q=1#x' },
  ],
  action: [
    ...HOST_ACTIONS.map((action) => ({ type: 'action' as const, action })),
    { type: 'action', action: 'answerSudo', arg: 'sudo-1' },
    { type: 'action', action: 'reviewApproval', arg: 'apv-1-call_1' },
  ],
  checkpointAction: CHECKPOINT_ROW_ACTIONS.map((action) => ({
    type: 'checkpointAction' as const,
    id: 'cp-1767225600-0123456789abcdef',
    action,
  })),
  queueEdit: [{ type: 'queueEdit', id: 'q-1', prompt: 'then run the tests' }],
  queueMove: [
    { type: 'queueMove', id: 'q-2', beforeId: 'q-1' },
    { type: 'queueMove', id: 'q-1', beforeId: null },
  ],
  queueRemove: [{ type: 'queueRemove', id: 'q-1' }],
  queuePause: [
    { type: 'queuePause', paused: true },
    { type: 'queuePause', paused: false },
  ],
  intercomReply: [{ type: 'intercomReply', id: 'ask-1-1767225600000', reply: 'use the second option' }],
  goalStart: [
    { type: 'goalStart', goal: 'add a --json flag to the CLI', autoDeploy: false, ceoMode: true },
    { type: 'goalStart', goal: 'port the parser', autoDeploy: true, ceoMode: false, concurrency: 3, maxTasks: 8, model: 'scripted/m1' },
  ],
  goalAction: [
    { type: 'goalAction', action: 'approve' },
    { type: 'goalAction', action: 'revise', feedback: 'split step 2 in two' },
    { type: 'goalAction', action: 'cancel' },
    { type: 'goalAction', action: 'refresh' },
    { type: 'goalAction', action: 'openControlCenter' },
  ],
} satisfies { [K in WebviewToHost['type']]: Extract<WebviewToHost, { type: K }>[] };

describe('validateWebviewMessage accepts', () => {
  for (const [type, examples] of Object.entries(VALID)) {
    test(type, () => {
      for (const m of examples) assert.deepEqual(validateWebviewMessage(m), m, JSON.stringify(m).slice(0, 200));
    });
  }

  test('the size limits themselves', () => {
    assert.ok(validateWebviewMessage({ type: 'steer', text: 'x'.repeat(MAX_TEXT) }));
    assert.ok(validateWebviewMessage({ type: 'send', text: 'x', images: Array(MAX_IMAGES).fill(PNG) }));
  });
});

describe('validateWebviewMessage rejects', () => {
  const reject = (m: unknown, why: string) => assert.equal(validateWebviewMessage(m), undefined, why);

  test('non-objects', () => {
    for (const m of [null, undefined, 0, 42, 'ready', true, [], [{ type: 'ready' }], () => ({ type: 'ready' })]) reject(m, String(m));
  });

  test('unknown or malformed types', () => {
    reject({}, 'no type');
    reject({ type: 'launchMissiles' }, 'unknown type');
    reject({ type: 'READY' }, 'case matters');
    reject({ type: 1 }, 'numeric type');
    reject({ type: 'toString' }, 'inherited Object property');
    reject({ type: '__proto__' }, 'prototype key');
    reject({ type: 'hasOwnProperty' }, 'inherited method name');
  });

  test('goal messages out of range or without their feedback', () => {
    reject({ type: 'goalStart', goal: '', autoDeploy: true, ceoMode: false }, 'empty goal');
    reject({ type: 'goalStart', goal: 'x', autoDeploy: 'yes', ceoMode: false }, 'autoDeploy not a boolean');
    reject({ type: 'goalStart', goal: 'x', autoDeploy: true, ceoMode: false, concurrency: 33 }, 'concurrency over 32');
    reject({ type: 'goalStart', goal: 'x', autoDeploy: true, ceoMode: false, maxTasks: 0 }, 'max_tasks under 1');
    reject({ type: 'goalAction', action: 'revise' }, 'revise without feedback');
    reject({ type: 'goalAction', action: 'revise', feedback: '   ' }, 'blank feedback');
    reject({ type: 'goalAction', action: 'approve', feedback: 'x' }, 'feedback on approve');
    reject({ type: 'goalAction', action: 'deploy' }, 'unknown action');
  });

  test('an external link that is not a plain http(s) URL', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'command:workbench.action.terminal.new',
      'vscode://settings',
      'data:text/html,x',
      'https://user:pw@example.com/',
      'https:// example.com',
      '/relative',
      `https://example.com/${'x'.repeat(2048)}`,
    ]) {
      reject({ type: 'openExternal', url }, url);
    }
    reject({ type: 'openExternal' }, 'no url');
  });

  test('wrong field types', () => {
    reject({ type: 'resync', lastSeq: '3' }, 'string seq');
    reject({ type: 'resync', lastSeq: -1 }, 'negative seq');
    reject({ type: 'resync', lastSeq: 1.5 }, 'fractional seq');
    reject({ type: 'send', text: 5, images: [] }, 'numeric text');
    reject({ type: 'send', text: 'x' }, 'missing images');
    reject({ type: 'send', text: 'x', images: 'data:image/png;base64,AA' }, 'images not an array');
    reject({ type: 'approve', requestId: 7, decision: 'yes' }, 'numeric request id');
    reject({ type: 'userBash', command: '  ', excludeFromContext: false }, 'blank shell command');
    reject({ type: 'userBash', command: 'ls' }, 'excludeFromContext missing');
    reject({ type: 'userBash', command: 'ls', excludeFromContext: 'yes' }, 'string excludeFromContext');
    reject({ type: 'intercomReply', id: 'ask-1', reply: '' }, 'empty intercom reply');
    reject({ type: 'intercomReply', id: 'ask-1', reply: ' \n ' }, 'blank intercom reply');
    reject({ type: 'intercomReply', id: '', reply: 'yes' }, 'no intercom id');
    reject({ type: 'approve', requestId: 'a', decision: 'maybe' }, 'unknown decision');
    reject({ type: 'approve', requestId: 'a', decision: 'allow_pattern', pattern: 5 }, 'numeric pattern');
    reject({ type: 'askReply', requestId: 'a', answers: ['x'] }, 'answers array');
    reject({ type: 'askReply', requestId: 'a', answers: { q: 1 } }, 'non-string answer');
    reject({ type: 'askReply', requestId: 'a' }, 'answers missing');
    reject({ type: 'setApprovalMode', mode: 'yolo' }, 'unknown mode');
    reject({ type: 'slash', name: 'Compact', args: '' }, 'uppercase slash name');
    reject({ type: 'slash', name: '../x', args: '' }, 'path-like slash name');
    reject({ type: 'slash', name: 'ok' }, 'args missing');
    reject({ type: 'pinSession', path: 'p', pinned: 'yes' }, 'string pinned');
    reject({ type: 'complete', requestId: 1, kind: 'url', query: '' }, 'unknown completion kind');
    reject({ type: 'complete', requestId: '1', kind: 'file', query: '' }, 'string request id');
    reject({ type: 'openFile', path: 'a.ts', line: -3 }, 'negative line');
    reject({ type: 'openFile', path: 'a.ts', line: '3' }, 'string line');
    reject({ type: 'action', action: 'runShell' }, 'unknown action');
    reject({ type: 'action', action: 'login', arg: 3 }, 'numeric arg');
    reject({ type: 'copy' }, 'copy without text');
  });

  test('checkpoint row actions: a known action on a plausible id only', () => {
    const id = 'cp-1767225600-0123456789abcdef';
    reject({ type: 'checkpointAction', id, action: 'restoreEverythingEverywhere' }, 'unknown action');
    reject({ type: 'checkpointAction', id, action: 'Restore' }, 'case matters');
    reject({ type: 'checkpointAction', id }, 'action missing');
    reject({ type: 'checkpointAction', action: 'compare' }, 'id missing');
    reject({ type: 'checkpointAction', id: '', action: 'compare' }, 'empty id');
    reject({ type: 'checkpointAction', id: 7, action: 'compare' }, 'numeric id');
    reject({ type: 'checkpointAction', id: 'c'.repeat(201), action: 'compare' }, 'oversize id');
    reject({ type: 'checkpointAction', id: 'cp-1\nx', action: 'compare' }, 'control character in id');
    reject({ type: 'checkpointAction', id: ['cp-1'], action: 'compare' }, 'array id');
    assert.ok(validateWebviewMessage({ type: 'checkpointAction', id: 'c'.repeat(200), action: 'restoreBoth' }));
  });

  test('empty required strings', () => {
    reject({ type: 'send', text: '', images: [] }, 'empty prompt');
    reject({ type: 'steer', text: '' }, 'empty steer');
    reject({ type: 'approve', requestId: '', decision: 'yes' }, 'empty request id');
    reject({ type: 'setModel', model: '' }, 'empty model');
    reject({ type: 'setModel', model: 'm', provider: '' }, 'empty provider');
    reject({ type: 'openSession', path: '' }, 'empty path');
    reject({ type: 'openFile', path: '' }, 'empty file path');
    reject({ type: 'approve', requestId: 'a', decision: 'allow_pattern', pattern: '' }, 'empty pattern');
  });

  test('oversize fields', () => {
    reject({ type: 'steer', text: 'x'.repeat(MAX_TEXT + 1) }, 'steer text');
    reject({ type: 'send', text: 'x'.repeat(MAX_TEXT + 1), images: [] }, 'prompt text');
    reject({ type: 'approve', requestId: 'a'.repeat(301), decision: 'yes' }, 'request id');
    reject({ type: 'approve', requestId: 'a', decision: 'allow_pattern', pattern: '*'.repeat(4097) }, 'pattern');
    reject({ type: 'setModel', model: 'm'.repeat(501) }, 'model id');
    reject({ type: 'setModel', model: 'm', provider: 'p'.repeat(201) }, 'provider name');
    reject({ type: 'setReasoning', effort: 'e'.repeat(51) }, 'effort');
    reject({ type: 'slash', name: 'a'.repeat(42), args: '' }, 'slash name');
    reject({ type: 'slash', name: 'x', args: 'a'.repeat(100_001) }, 'slash args');
    reject({ type: 'renameSession', path: 'p', title: 't'.repeat(201) }, 'title');
    reject({ type: 'openFile', path: 'p'.repeat(4097) }, 'file path');
    reject({ type: 'complete', requestId: 1, kind: 'file', query: 'q'.repeat(501) }, 'query');
    reject({ type: 'askReply', requestId: 'a', answers: { ['k'.repeat(301)]: 'v' } }, 'answer key');
    reject({ type: 'askReply', requestId: 'a', answers: { k: 'v'.repeat(100_001) } }, 'answer value');
    reject({ type: 'action', action: 'answerSudo', arg: 'a'.repeat(4097) }, 'action arg');
    reject({ type: 'send', text: 'x', images: Array(MAX_IMAGES + 1).fill(PNG) }, 'too many images');
  });

  test('bad image URLs', () => {
    const bad = [
      'https://example.com/cat.png',
      'file:///etc/passwd',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/png,rawbytes',
      'data:image/png;base64,not base64!',
      'data:image/png;base64,AAAA\n<script>',
      ' data:image/png;base64,AAAA',
      'javascript:alert(1)',
      `data:image/png;base64,${'A'.repeat(MAX_IMAGE_URL)}`,
    ];
    for (const url of bad) reject({ type: 'send', text: 'x', images: [url] }, url.slice(0, 60));
    reject({ type: 'send', text: 'x', images: [PNG, 42] }, 'non-string image');
  });
});

describe('TEST_IDS', () => {
  test('are unique', () => {
    const values = Object.values(TEST_IDS);
    assert.equal(new Set(values).size, values.length);
  });

  test('the review and sudo ids the end-to-end tests use', () => {
    assert.deepEqual(
      [TEST_IDS.reviewList, TEST_IDS.reviewListRow, TEST_IDS.approvalReview, TEST_IDS.sudoCard, TEST_IDS.sudoAnswer],
      ['review-list', 'review-list-row', 'approval-review', 'sudo-card', 'sudo-answer'],
    );
  });

  test('the checkpoint row ids', () => {
    assert.deepEqual(
      [TEST_IDS.checkpointRow, TEST_IDS.checkpointCompare, TEST_IDS.checkpointRestore],
      ['checkpoint-row', 'checkpoint-compare', 'checkpoint-restore'],
    );
  });
});
