import type { HostToWebview } from '../../src/shared/webviewMessages';
import { h } from '../infra/dom';
import { FrameCoalescer } from '../infra/frameScheduler';
import type { WebviewApp } from '../infra/boot';
import type { HostBridge } from '../infra/hostBridge';
import { HighlightQueue } from '../markdown/highlightQueue';
import { SessionStore, mergeChanges, type StateChange } from '../state/store';
import type { UiStateStore } from '../state/uiState';
import { ControlCenter } from './controlCenter';

/**
 * The Control Center panel's UI (its own bundle): the same snapshot and patch stream as the chat, applied to a store
 * at once and rendered once per animation frame — the goal only, no chat views.
 */
export class ControlCenterApp implements WebviewApp {
  private readonly store = new SessionStore();
  private readonly frames: FrameCoalescer<StateChange>;
  private readonly highlighter = new HighlightQueue();
  private readonly controlCenter: ControlCenter;
  private readonly appEl: HTMLElement;

  constructor(
    root: HTMLElement,
    private readonly host: HostBridge,
    ui: UiStateStore,
  ) {
    this.frames = new FrameCoalescer<StateChange>(
      (cb) => requestAnimationFrame(cb),
      mergeChanges,
      (change) => this.render(change),
    );
    this.controlCenter = new ControlCenter(
      {
        post: host.post.bind(host),
        ui,
        state: () => this.store.state!,
        askDrafts: new Map(),
        highlighter: this.highlighter,
        subagents: this.store.subagents,
      },
      this.highlighter,
    );
    this.appEl = h('div', { class: 'app control-center' }, this.controlCenter.root);
    root.replaceChildren(this.appEl);
  }

  onMessage(message: HostToWebview): void {
    if (message.type === 'snapshot') {
      this.frames.mark(this.store.applySnapshot(message.seq, message.state, message.view));
    } else if (message.type === 'patches') {
      const outcome = this.store.applyPatches(message.seq, message.patches);
      if (outcome.kind === 'applied') this.frames.mark(outcome.change);
      else if (outcome.kind === 'gap') this.host.post({ type: 'resync', lastSeq: outcome.lastSeq });
    }
  }

  private render(change: StateChange): void {
    const state = this.store.state;
    if (!state) return;
    this.highlighter.newFrame();
    // The stylesheet keys off it: while the run waits for the user nothing is working, so no spinner turns.
    if (this.appEl.dataset.run !== state.run.status) this.appEl.dataset.run = state.run.status;
    this.controlCenter.update(state, change);
  }
}
