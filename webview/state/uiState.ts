import { MAX_TEXT } from '../../src/shared/webviewMessages';
import type { VsCodeApi } from '../infra/hostBridge';

/**
 * What the webview keeps across reloads through `setState`: UI state only (the draft, where the transcript was
 * scrolled, which cards the user opened or closed). Never the transcript, never secrets.
 */
export interface UiState {
  draft: string;
  /** The scroll position of one session's transcript. */
  scroll?: { session: string; index: number; offset: number; stick: boolean };
  /** Item id → the user's explicit open/closed choice for its collapsible part. */
  expanded: Record<string, boolean>;
}

const MAX_EXPANDED = 500;
const SAVE_DELAY_MS = 250;

export class UiStateStore {
  private state: UiState;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly api: VsCodeApi) {
    this.state = sanitize(api.getState());
  }

  get current(): Readonly<UiState> {
    return this.state;
  }

  update(change: Partial<UiState>): void {
    this.state = { ...this.state, ...change };
    this.scheduleSave();
  }

  /** The user's choice for an item's collapsible part, or undefined when they never toggled it. */
  expandedChoice(id: string): boolean | undefined {
    return this.state.expanded[id];
  }

  setExpanded(id: string, open: boolean): void {
    const expanded = { ...this.state.expanded };
    delete expanded[id];
    expanded[id] = open;
    const keys = Object.keys(expanded);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_EXPANDED))) delete expanded[key];
    this.update({ expanded });
  }

  /** Saves a pending change now: the document is going away (VS Code replaces a webview's frame when it reloads it). */
  flush(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.save();
  }

  private scheduleSave(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  private save(): void {
    this.timer = undefined;
    this.api.setState(this.state);
  }
}

function sanitize(raw: unknown): UiState {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const draft = typeof r.draft === 'string' && r.draft.length <= MAX_TEXT ? r.draft : '';
  const expanded: Record<string, boolean> = {};
  if (typeof r.expanded === 'object' && r.expanded !== null) {
    for (const [k, v] of Object.entries(r.expanded).slice(-MAX_EXPANDED)) if (typeof v === 'boolean') expanded[k] = v;
  }
  const s = r.scroll as Record<string, unknown> | undefined;
  const scroll =
    s && typeof s.session === 'string' && Number.isInteger(s.index) && typeof s.offset === 'number' && typeof s.stick === 'boolean'
      ? { session: s.session, index: s.index as number, offset: s.offset, stick: s.stick }
      : undefined;
  return { draft, expanded, scroll };
}
