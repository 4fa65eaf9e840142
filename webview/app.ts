import type { HostToWebview, ViewContext } from '../src/shared/webviewMessages';
import type { SessionState } from '../src/shared/sessionState';
import { Composer } from './composer/composer';
import { h } from './infra/dom';
import { HighlightQueue } from './markdown/highlightQueue';
import { FrameCoalescer } from './infra/frameScheduler';
import type { HostBridge } from './infra/hostBridge';
import type { ItemContext } from './transcript/itemView';
import { supports } from './infra/capabilities';
import { ReviewList } from './review/reviewList';
import { ServerQueuePanel } from './serverQueue/serverQueuePanel';
import { SessionList } from './sessions/sessionList';
import { SessionStore, emptyChange, mergeChanges, type StateChange } from './state/store';
import { Toolbar } from './header/toolbar';
import { TranscriptView } from './transcript/transcriptView';
import type { UiStateStore } from './state/uiState';
import { WelcomePanel } from './welcome/welcome';
import { GoalCard } from './goal/goalCard';

/**
 * The chat UI: applies host messages to the store at once and renders what changed once per animation frame.
 */
export class App {
  private readonly store = new SessionStore();
  private readonly frames: FrameCoalescer<StateChange>;
  private readonly toolbar: Toolbar;
  private readonly sessions: SessionList;
  private readonly welcome: WelcomePanel;
  private readonly transcript: TranscriptView;
  private readonly reviewList: ReviewList;
  private readonly serverQueue: ServerQueuePanel;
  private readonly composer: Composer;
  private readonly highlighter: HighlightQueue;
  private readonly appEl: HTMLElement;
  private readonly goalCard: GoalCard;

  constructor(
    root: HTMLElement,
    private readonly host: HostBridge,
    private readonly ui: UiStateStore,
  ) {
    this.frames = new FrameCoalescer<StateChange>(
      (cb) => requestAnimationFrame(cb),
      mergeChanges,
      (change) => this.render(change),
    );
    const post = host.post.bind(host);
    this.highlighter = new HighlightQueue();
    const ctx: ItemContext = {
      post,
      ui,
      state: () => this.store.state!,
      askDrafts: new Map(),
      highlighter: this.highlighter,
      subagents: this.store.subagents,
    };
    this.toolbar = new Toolbar(post, () => this.toggleSessions());
    this.sessions = new SessionList(post, () => this.toggleSessions(false));
    this.welcome = new WelcomePanel(post);
    this.goalCard = new GoalCard(post);
    this.transcript = new TranscriptView(
      ctx,
      () => this.frames.mark(emptyChange()),
      () => this.saveScroll(),
    );
    this.reviewList = new ReviewList(post, ui);
    this.composer = new Composer(post, (draft) => this.ui.update({ draft }));
    this.composer.setDraft(ui.current.draft);
    this.serverQueue = new ServerQueuePanel(post, {
      restoreDraft: (text) => this.composer.restoreDraft(text),
      focusComposer: () => this.composer.focus(),
    });
    this.appEl = h(
      'div',
      { class: 'app' },
      this.toolbar.root,
      this.sessions.root,
      this.welcome.root,
      this.goalCard.root,
      this.transcript.root,
      this.reviewList.root,
      this.serverQueue.root,
      this.composer.root,
    );
    root.replaceChildren(this.appEl);
  }

  /** Host messages: state goes to the store immediately, rendering waits for the next frame. */
  onMessage(message: HostToWebview): void {
    switch (message.type) {
      case 'snapshot':
        this.restoreScroll(message.state);
        this.frames.mark(this.store.applySnapshot(message.seq, message.state, message.view));
        break;
      case 'patches': {
        const outcome = this.store.applyPatches(message.seq, message.patches);
        if (outcome.kind === 'applied') this.frames.mark(outcome.change);
        else if (outcome.kind === 'gap') this.host.post({ type: 'resync', lastSeq: outcome.lastSeq });
        break;
      }
      case 'completions':
        this.composer.onCompletions(message.requestId, message.items);
        break;
      case 'insertText':
        this.composer.insertText(message.text);
        break;
      case 'focusInput':
        this.composer.focus();
        break;
    }
  }

  private render(change: StateChange): void {
    const state = this.store.state;
    if (!state) return;
    this.highlighter.newFrame();
    const view = this.store.view as ViewContext;
    if (change.reset || change.keys.size > 0) {
      this.showRunStatus(state);
      this.toolbar.update(state);
      this.welcome.update(state);
      this.goalCard.update(state.goal);
      this.sessions.update(state.sessions);
      if (this.sessions.isOpen && !supports(state, 'sessions')) this.toggleSessions(false);
      this.serverQueue.update(state);
      this.composer.update(state, view.slashCommands);
    }
    // Cheap when nothing it shows changed (streamed text never does): see ReviewList.update.
    this.reviewList.update(state, change);
    if (change.reset || change.length || change.items.size > 0) this.transcript.update(state, change);
    else this.transcript.relayout();
  }

  /** The stylesheet keys off it: while the run waits for the user nothing is working, so no spinner turns. */
  private showRunStatus(state: SessionState): void {
    if (this.appEl.dataset.run !== state.run.status) this.appEl.dataset.run = state.run.status;
  }

  private toggleSessions(open = !this.sessions.isOpen): void {
    this.sessions.setOpen(open);
    this.toolbar.setSessionsOpen(open);
    if (!open) this.toolbar.sessionsButton.focus();
  }

  private restoreScroll(state: SessionState): void {
    const saved = this.ui.current.scroll;
    const session = state.sessionFile ?? '';
    if (saved && saved.session === session) this.transcript.restore(saved);
    else this.transcript.restore({ index: 0, offset: 0, stick: true });
  }

  /** Called on every scroll event (60/s while following a stream): only a changed position is saved. */
  private saveScroll(): void {
    const session = this.store.state?.sessionFile ?? '';
    const p = this.transcript.position;
    const next = p.stick
      ? { session, index: 0, offset: 0, stick: true }
      : { session, index: p.index, offset: Math.round(p.offset), stick: false };
    const saved = this.ui.current.scroll;
    if (saved && saved.session === next.session && saved.index === next.index && saved.offset === next.offset && saved.stick === next.stick)
      return;
    this.ui.update({ scroll: next });
  }
}
