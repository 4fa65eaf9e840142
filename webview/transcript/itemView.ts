import type { SessionState, TranscriptItem } from '../../src/shared/sessionState';
import type { WebviewToHost } from '../../src/shared/webviewMessages';
import type { HighlightQueue } from '../markdown/highlightQueue';
import type { UiStateStore } from '../state/uiState';
import type { SubagentIndex } from '../subagents/subagentModel';

/** What an item view may use: posting intents, the UI state (expanded cards), the current session state. */
export interface ItemContext {
  post(message: WebviewToHost): void;
  readonly ui: UiStateStore;
  state(): SessionState;
  /** Highlights code blocks in idle time. */
  readonly highlighter: HighlightQueue;
  /** Unsent answers of ask forms, kept while their cards scroll out of the DOM. */
  readonly askDrafts: Map<string, Record<string, string>>;
  /** Which items belong to which `subagent` card (kept by the store). */
  readonly subagents: SubagentIndex;
}

/** The DOM of one transcript item. `root` never changes for the view's lifetime; `update` re-renders from the item. */
export interface ItemView<T extends TranscriptItem = TranscriptItem> {
  readonly root: HTMLElement;
  update(item: T): void;
  dispose?(): void;
}

/** `data-open-path` on any element makes a click on it open that workspace file (handled by the transcript). */
export const OPEN_PATH_ATTR = 'data-open-path';

/** On a bulk call's inner tool card and its approval card: indented under the bulk call's card (transcript.css). */
export const INNER_CALL_CLASS = 'inner-call';
