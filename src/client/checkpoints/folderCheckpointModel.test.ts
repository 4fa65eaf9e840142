import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type CoreStatus, type SessionState, initialSessionState, UI_CAPABILITIES } from '../../shared/sessionState';
import { type CheckpointSession, type FolderCheckpointHooks, FolderCheckpointModel } from './folderCheckpointModel';

const OLD = 'cp-1767225600-0123456789abcdef';
const NEW = 'cp-1767229200-fedcba9876543210';
const ALL_CAPABILITIES = [UI_CAPABILITIES.checkpoints, UI_CAPABILITIES.checkpointFiles];

type Event = { type: string; [field: string]: unknown };

/** A folder session that records the checkpoint commands it is asked to send, as `kind arg…` lines. */
class FakeSession implements CheckpointSession {
  state: SessionState = initialSessionState('embedded');
  readonly sent: string[] = [];
  private consumed = 0;
  private waiter: (() => void) | undefined;
  private readonly stateListeners = new Set<(s: SessionState) => void>();
  private readonly eventListeners = new Set<(e: Event) => void>();

  constructor(private readonly caps: readonly string[] = ALL_CAPABILITIES) {}

  capabilities(): ReadonlySet<string> {
    return new Set(this.caps);
  }
  onDidChange(listener: (s: SessionState) => void) {
    this.stateListeners.add(listener);
    return { dispose: () => void this.stateListeners.delete(listener) };
  }
  onEvent(listener: (e: Event) => void) {
    this.eventListeners.add(listener);
    return { dispose: () => void this.eventListeners.delete(listener) };
  }

  setStatus(status: CoreStatus): void {
    this.state = { ...this.state, core: { ...this.state.core, status } };
    for (const l of [...this.stateListeners]) l(this.state);
  }
  emit(event: Event): void {
    for (const l of [...this.eventListeners]) l(event);
  }
  get listeners(): number {
    return this.stateListeners.size + this.eventListeners.size;
  }

  /** The next command sent after the ones already taken, waiting for it if need be. */
  async nextSent(): Promise<string> {
    while (this.consumed >= this.sent.length) await new Promise<void>((resolve) => (this.waiter = resolve));
    return this.sent[this.consumed++];
  }

  listCheckpoints = () => this.record('list');
  createCheckpoint = (label?: string) => this.record(`create ${label ?? ''}`.trim());
  restoreCheckpoint = (id: string) => this.record(`restore ${id}`);
  deleteCheckpoint = (id: string) => this.record(`delete ${id}`);
  checkpointChanges = (id: string) => this.record(`changes ${id}`);
  checkpointFile = (id: string, path: string) => this.record(`file ${id} ${path}`);

  private record(line: string): boolean {
    this.sent.push(line);
    this.waiter?.();
    this.waiter = undefined;
    return true;
  }
}

interface Setup {
  session: FakeSession;
  model: FolderCheckpointModel;
  calls: string[];
}

const open: FolderCheckpointModel[] = [];
afterEach(() => open.splice(0).forEach((m) => m.dispose()));

function setup(caps?: readonly string[]): Setup {
  const session = new FakeSession(caps);
  const calls: string[] = [];
  const hooks: FolderCheckpointHooks = {
    folderName: 'proj',
    warn: (line) => calls.push(`warn ${line}`),
    coreReady: (supported) => calls.push(`ready ${supported}`),
    listChanged: () => calls.push('listChanged'),
    invalidated: (id) => calls.push(`invalidated ${id}`),
  };
  const model = new FolderCheckpointModel(session, hooks);
  open.push(model);
  model.start();
  return { session, model, calls };
}

/** Ready, and the first refresh answered with these checkpoints (and their comparisons, when asked). */
async function listed(s: Setup, ids: string[]): Promise<void> {
  s.session.setStatus('ready');
  assert.equal(await s.session.nextSent(), 'list');
  s.session.emit({ type: 'checkpoints', checkpoints: ids.map((id) => ({ id, label: `label of ${id}` })) });
  for (const _ of ids) {
    const [kind, id] = (await s.session.nextSent()).split(' ');
    assert.equal(kind, 'changes');
    s.session.emit({ type: 'checkpoint_changes', id, files: [] });
  }
}

describe('FolderCheckpointModel', () => {
  test('asks nothing before the core is ready; then lists, and compares the newest first', async () => {
    const s = setup();
    s.session.setStatus('starting');
    assert.deepEqual(s.calls, []);
    s.session.setStatus('ready');
    assert.deepEqual(s.calls, ['ready true']);
    assert.equal(await s.session.nextSent(), 'list', 'the first command is the list: nothing was sent while starting');
    s.session.emit({
      type: 'checkpoints',
      checkpoints: [
        { id: OLD, label: 'old' },
        { id: NEW, label: 'new' },
      ],
    });
    assert.deepEqual(
      s.model.list.all.map((e) => e.id),
      [NEW, OLD],
    );
    assert.equal(await s.session.nextSent(), `changes ${NEW}`);
    assert.equal(await s.session.nextSent(), `changes ${OLD}`);
    s.session.emit({
      type: 'checkpoint_changes',
      id: NEW,
      files: [
        { path: 'b.ts', status: 'modified' },
        { path: 'a.ts', status: 'added' },
      ],
    });
    assert.deepEqual(s.model.list.changesOf(NEW), [
      { path: 'a.ts', status: 'added' },
      { path: 'b.ts', status: 'modified' },
    ]);
    assert.deepEqual(s.calls, ['ready true', 'listChanged', 'listChanged']);
  });

  test('a core without checkpoints (an SCV server) is told apart and never asked', async () => {
    const s = setup([]);
    s.session.setStatus('ready');
    assert.deepEqual(s.calls, ['ready false']);
    await s.model.reload();
    assert.equal(await s.model.changesFor(OLD), undefined);
    assert.deepEqual(s.session.sent, []);
  });

  test('a core that lists but cannot compare is asked for the list only', async () => {
    const s = setup([UI_CAPABILITIES.checkpoints]);
    s.session.setStatus('ready');
    assert.equal(await s.session.nextSent(), 'list');
    const reload = s.model.reload();
    s.session.emit({ type: 'checkpoints', checkpoints: [{ id: OLD, label: 'old' }] });
    await reload;
    assert.deepEqual(s.session.sent, ['list', 'list']);
  });

  test('the core leaving ready rejects what waits for its answer, saying why', async () => {
    const s = setup();
    await listed(s, []);
    const changes = s.model.fetchChanges(OLD);
    assert.equal(await s.session.nextSent(), `changes ${OLD}`);
    s.session.setStatus('restarting');
    await assert.rejects(changes, /the core for proj is restarting/);
  });

  test('a file is read once per checkpoint and path, and again after the checkpoint was restored', async () => {
    const s = setup();
    await listed(s, [OLD]);
    const first = s.model.fileContent(OLD, 'a.ts');
    assert.equal(await s.session.nextSent(), `file ${OLD} a.ts`);
    s.session.emit({ type: 'checkpoint_file', id: OLD, path: 'a.ts', exists: true, content: 'A' });
    assert.equal((await first).content, 'A');
    assert.equal(s.model.fileContent(OLD, 'a.ts'), first, 'cached');
    const sentBefore = s.session.sent.length;
    s.session.emit({ type: 'checkpoint_restored', id: OLD });
    assert.ok(s.calls.includes(`invalidated ${OLD}`));
    const again = s.model.fileContent(OLD, 'a.ts');
    assert.notEqual(again, first);
    assert.equal(s.session.sent[sentBefore], `file ${OLD} a.ts`, 'read again right away');
  });

  test('a failed read is not cached', async () => {
    const s = setup();
    await listed(s, [OLD]);
    const failed = s.model.fileContent(OLD, 'gone.ts');
    assert.equal(await s.session.nextSent(), `file ${OLD} gone.ts`);
    s.session.emit({ type: 'error', code: 'checkpoint_not_found', message: 'unknown checkpoint', id: OLD, path: 'gone.ts' });
    await assert.rejects(failed, /unknown checkpoint/);
    const retry = s.model.fileContent(OLD, 'gone.ts');
    assert.notEqual(retry, failed);
    assert.equal(await s.session.nextSent(), `file ${OLD} gone.ts`);
  });

  test('a deleted checkpoint leaves the list and its documents are invalidated', async () => {
    const s = setup();
    await listed(s, [OLD, NEW]);
    s.calls.length = 0;
    const deleted = s.model.delete(OLD);
    assert.equal(await s.session.nextSent(), `delete ${OLD}`);
    s.session.emit({ type: 'checkpoint_deleted', id: OLD });
    assert.equal(await deleted, OLD);
    assert.deepEqual(
      s.model.list.all.map((e) => e.id),
      [NEW],
    );
    assert.deepEqual(s.calls, [`invalidated ${OLD}`, 'listChanged']);
  });

  test('create resolves with the entry the core made, already in the list', async () => {
    const s = setup();
    await listed(s, []);
    const created = s.model.create('before the refactor');
    assert.equal(await s.session.nextSent(), 'create before the refactor');
    s.session.emit({ type: 'checkpoint_created', id: NEW, label: 'before the refactor', auto: false });
    const entry = await created;
    assert.equal(entry.id, NEW);
    assert.equal(s.model.list.get(NEW)?.label, 'before the refactor');
  });

  test('another session empties the list and asks for its checkpoints', async () => {
    const s = setup();
    await listed(s, [OLD]);
    s.session.emit({ type: 'session_changed', path: '/sessions/other.jsonl' });
    assert.equal(s.model.list.size, 0);
    assert.equal(await s.session.nextSent(), 'list');
  });

  test('a file event makes the listed checkpoints be compared again', async () => {
    const s = setup();
    await listed(s, [OLD]);
    s.model.onWorkspaceFileEvent();
    assert.equal(await s.session.nextSent(), `changes ${OLD}`);
  });

  test('dispose rejects what waits and stops following the session', async () => {
    const s = setup();
    await listed(s, []);
    const restore = s.model.restore(OLD);
    assert.equal(await s.session.nextSent(), `restore ${OLD}`);
    s.model.dispose();
    await assert.rejects(restore, /the checkpoints view closed/);
    assert.equal(s.session.listeners, 0);
  });
});
