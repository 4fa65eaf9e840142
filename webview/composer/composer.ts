import type { SessionState } from '../../src/shared/sessionState';
import { MAX_TEXT, TEST_IDS, type CompletionItem, type SlashCommandInfo, type WebviewToHost } from '../../src/shared/webviewMessages';
import { supports } from '../infra/capabilities';
import { applyCompletion, completionContextAt, type CompletionContext } from './completionContext';
import { CompletionPopup, type CompletionEntry } from './completionPopup';
import { codicon, h, iconButton, setDisabled, vscodeButton } from '../infra/dom';
import { ImageAttachments } from './imageAttachments';
import { sendButtonText } from '../serverQueue/serverQueueModel';
import { availableSlashCommands, matchSlashCommands, parseSlashInput } from './slashCommands';
import { parseSkillInput, skillCommands } from './skillCompletion';
import { parsePluginInput, pluginCommands } from './pluginCompletion';
import { isRunActive } from '../header/statusText';
import { bashInputRefusal, parseBashInput } from './bashInput';

const FILE_QUERY_DELAY_MS = 60;

/**
 * The prompt input: Enter sends (Shift+Enter is a newline); while a run is going, Send queues the prompt (on the server
 * for a core with its own queue, which then has its own panel instead of the one-deep queued chip), Steer redirects the
 * run and Abort stops it (Escape in an empty composer too). Slash commands and @file mentions complete in a popup (only
 * the commands the core can do); pasted or dropped images are attached.
 */
export class Composer {
  readonly root: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLElement;
  private readonly steerButton: HTMLElement;
  private readonly abortButton: HTMLElement;
  private readonly queuedChip: HTMLElement;
  private readonly queuedText: HTMLElement;
  private readonly hint: HTMLElement;
  private readonly completion: CompletionPopup;
  private readonly images: ImageAttachments;
  private slashCommands: readonly SlashCommandInfo[] = [];
  /** The commands the completion popup offers: those the core supports. */
  private offeredCommands: readonly SlashCommandInfo[] = [];
  private running = false;
  private canSteer = true;
  private serverQueue = false;
  private canRunBash = false;
  private completionContext: CompletionContext | undefined;
  private completionRequest = 0;
  private fileQueryTimer: ReturnType<typeof setTimeout> | undefined;
  /** What the buttons were last derived from (patches replace these objects when they change). */
  private lastRun: SessionState['run'] | undefined;
  private lastCore: SessionState['core'] | undefined;
  private lastSkills: SessionState['skills'];
  private lastPlugins: SessionState['plugins'];
  private pluginCommands: SlashCommandInfo[] = [];

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly onDraftChange: (draft: string) => void,
  ) {
    this.textarea = h('textarea', {
      class: 'composer-input',
      'data-testid': TEST_IDS.composer,
      rows: '1',
      'aria-label': 'Message to Catalyst',
      placeholder: 'Ask Catalyst… (/ for commands, @ to mention files, ! to run a shell command)',
      spellcheck: 'true',
    });
    this.completion = new CompletionPopup(this.textarea);
    this.images = new ImageAttachments(
      () => this.refreshButtons(),
      (reason) => this.showHint(reason),
    );
    this.sendButton = vscodeButton({
      label: 'Send',
      icon: 'send',
      testId: TEST_IDS.sendButton,
      title: 'Send (Enter)',
      onClick: () => this.send(),
    });
    this.steerButton = vscodeButton({
      label: 'Steer',
      icon: 'compass',
      secondary: true,
      testId: TEST_IDS.steerButton,
      title: 'Redirect the running turn with this message (Ctrl+Enter)',
      onClick: () => this.steer(),
    });
    this.abortButton = vscodeButton({
      label: 'Stop',
      icon: 'debug-stop',
      secondary: true,
      testId: TEST_IDS.abortButton,
      ariaLabel: 'Abort the running turn',
      title: 'Abort (Escape in an empty input)',
      onClick: () => this.post({ type: 'abort' }),
    });
    this.queuedText = h('span', { class: 'queued-text' });
    this.queuedChip = h(
      'div',
      { class: 'queued-chip', 'data-testid': TEST_IDS.queuedChip, hidden: true, role: 'status' },
      codicon('clock'),
      h('span', { class: 'queued-label' }, 'Queued:'),
      this.queuedText,
      iconButton('close', 'Remove the queued prompt', () => this.post({ type: 'clearQueue' })),
    );
    this.hint = h('div', { class: 'composer-hint', role: 'status', hidden: true });
    this.root = h(
      'div',
      { class: 'composer' },
      this.queuedChip,
      this.completion.root,
      h(
        'div',
        { class: 'composer-box' },
        this.images.root,
        this.textarea,
        h(
          'div',
          { class: 'composer-actions' },
          this.hint,
          h('span', { class: 'spacer' }),
          this.abortButton,
          this.steerButton,
          this.sendButton,
        ),
      ),
    );
    this.listen();
    this.refreshButtons();
  }

  get draft(): string {
    return this.textarea.value;
  }

  setDraft(text: string): void {
    this.textarea.value = text;
    this.autosize();
    this.refreshButtons();
  }

  focus(): void {
    this.textarea.focus();
  }

  update(state: SessionState, slashCommands: readonly SlashCommandInfo[]): void {
    if (
      state.run === this.lastRun &&
      state.core === this.lastCore &&
      state.skills === this.lastSkills &&
      state.plugins === this.lastPlugins &&
      slashCommands === this.slashCommands
    )
      return;
    this.lastRun = state.run;
    this.lastCore = state.core;
    this.lastSkills = state.skills;
    this.lastPlugins = state.plugins;
    this.pluginCommands = supports(state, 'plugins') ? pluginCommands(state, slashCommands) : [];
    this.slashCommands = slashCommands;
    this.offeredCommands = availableSlashCommands(slashCommands, state);
    if (supports(state, 'skills')) this.offeredCommands = [...this.offeredCommands, ...skillCommands(state)];
    this.offeredCommands = [...this.offeredCommands, ...this.pluginCommands];
    this.running = isRunActive(state);
    this.canSteer = supports(state, 'steer');
    this.serverQueue = supports(state, 'server_queue');
    this.canRunBash = supports(state, 'user_bash');
    const queued = state.run.queued;
    this.queuedChip.hidden = !queued || this.serverQueue;
    this.queuedText.textContent = queued ?? '';
    this.queuedText.title = queued ?? '';
    this.refreshButtons();
  }

  /** Text from the host (Ask About Selection, Add File to Chat): inserted at the caret. */
  insertText(text: string): void {
    const ta = this.textarea;
    const start = ta.selectionStart ?? ta.value.length;
    const end = ta.selectionEnd ?? start;
    const before = ta.value.slice(0, start);
    const sep = before && !/\s$/.test(before) ? ' ' : '';
    ta.setRangeText(sep + text, start, end, 'end');
    this.afterEdit();
    ta.focus();
  }

  /** An edit of a queued prompt that started running meanwhile: the text goes back into the input, not lost. */
  restoreDraft(text: string): void {
    if (this.textarea.value.trim() === '') this.setDraft(text);
    else this.insertText(text);
    this.onDraftChange(this.textarea.value);
    this.showHint('That queued prompt already started with its old text; your edit is in the input.');
  }

  onCompletions(requestId: number, items: readonly CompletionItem[]): void {
    if (requestId !== this.completionRequest || this.completionContext?.kind !== 'file') return;
    this.showCompletions(items.map((i) => ({ label: i.label, detail: i.detail, insertText: i.insertText })));
  }

  private listen(): void {
    const ta = this.textarea;
    ta.addEventListener('input', () => this.afterEdit());
    ta.addEventListener('keydown', (event) => this.onKeyDown(event));
    ta.addEventListener('click', () => this.updateCompletion());
    ta.addEventListener('blur', () => this.completion.hide());
    ta.addEventListener('paste', (event) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (this.images.addFiles(files) && !event.clipboardData?.getData('text/plain')) event.preventDefault();
    });
    this.root.addEventListener('dragover', (event) => {
      if ([...(event.dataTransfer?.items ?? [])].some((i) => i.kind === 'file')) event.preventDefault();
    });
    this.root.addEventListener('drop', (event) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length) event.preventDefault();
      this.images.addFiles(files);
    });
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (this.completion.isOpen && this.onCompletionKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      if ((event.ctrlKey || event.metaKey) && this.running && this.canSteer) this.steer();
      else this.send();
    } else if (event.key === 'Escape' && this.running && this.textarea.value.trim() === '') {
      event.preventDefault();
      this.post({ type: 'abort' });
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Home' || event.key === 'End') {
      queueMicrotask(() => this.updateCompletion());
    }
  }

  private onCompletionKey(event: KeyboardEvent): boolean {
    switch (event.key) {
      case 'ArrowDown':
        this.completion.move(1);
        return true;
      case 'ArrowUp':
        this.completion.move(-1);
        return true;
      case 'Enter':
      case 'Tab':
        return !event.shiftKey && this.completion.accept();
      case 'Escape':
        this.completion.hide();
        return true;
      default:
        return false;
    }
  }

  private afterEdit(): void {
    this.autosize();
    this.refreshButtons();
    this.onDraftChange(this.textarea.value);
    this.updateCompletion();
    if (!this.hint.hidden) this.hint.hidden = true;
  }

  private updateCompletion(): void {
    const ta = this.textarea;
    const context = ta.selectionStart === ta.selectionEnd ? completionContextAt(ta.value, ta.selectionStart) : undefined;
    this.completionContext = context;
    clearTimeout(this.fileQueryTimer);
    if (!context) return this.completion.hide();
    if (context.kind === 'slash') {
      const entries = matchSlashCommands(context.query, this.offeredCommands).map((c) => ({
        label: `/${c.name}${c.args ? ` ${c.args}` : ''}`,
        detail: c.description,
        insertText: `/${c.name} `,
      }));
      return this.showCompletions(entries);
    }
    this.fileQueryTimer = setTimeout(() => {
      this.completionRequest++;
      this.post({ type: 'complete', requestId: this.completionRequest, kind: 'file', query: context.query.slice(0, 500) });
    }, FILE_QUERY_DELAY_MS);
  }

  private showCompletions(entries: CompletionEntry[]): void {
    this.completion.show(entries, (entry) => {
      const context = this.completionContext;
      if (!context) return;
      const result = applyCompletion(this.textarea.value, context, entry.insertText);
      this.textarea.value = result.text;
      this.textarea.setSelectionRange(result.caret, result.caret);
      this.completionContext = undefined;
      this.autosize();
      this.refreshButtons();
      this.onDraftChange(this.textarea.value);
    });
  }

  private send(): void {
    const text = this.textarea.value.trim();
    if (!text || this.tooLong(text)) return;
    if (this.canRunBash && this.sendBash(text)) return;
    const slash =
      this.images.urls.length === 0
        ? (parseSkillInput(text, this.slashCommands) ??
          parsePluginInput(text, this.pluginCommands, this.slashCommands) ??
          parseSlashInput(text, this.slashCommands))
        : undefined;
    if (slash) this.post({ type: 'slash', name: slash.name, args: slash.args });
    else this.post({ type: 'send', text, images: [...this.images.urls] });
    this.images.clear();
    this.clearText();
  }

  /** `!cmd` / `!!cmd`: run by the core as the user's own command; false when the text is not one. */
  private sendBash(text: string): boolean {
    const bash = parseBashInput(text);
    if (!bash) return false;
    const refusal = bashInputRefusal(bash, this.running, this.images.urls.length);
    if (refusal) this.showHint(refusal);
    else {
      this.post({ type: 'userBash', command: bash.command, excludeFromContext: bash.excludeFromContext });
      this.clearText();
    }
    return true;
  }

  private steer(): void {
    const text = this.textarea.value.trim();
    if (!text || !this.running || this.tooLong(text)) return;
    this.post({ type: 'steer', text });
    this.clearText();
  }

  /** The host rejects longer messages; keep the text rather than lose it. */
  private tooLong(text: string): boolean {
    if (text.length <= MAX_TEXT) return false;
    this.showHint(`The message is too long (${Math.round(text.length / 1000)}k characters; at most ${MAX_TEXT / 1000}k).`);
    return true;
  }

  private clearText(): void {
    this.textarea.value = '';
    this.completion.hide();
    this.afterEdit();
  }

  private refreshButtons(): void {
    const empty = this.textarea.value.trim() === '';
    const send = sendButtonText(this.running, this.serverQueue);
    this.sendButton.lastChild!.textContent = send.label;
    this.sendButton.title = send.title;
    if (send.ariaLabel) this.sendButton.setAttribute('aria-label', send.ariaLabel);
    else this.sendButton.removeAttribute('aria-label');
    setDisabled(this.sendButton, empty);
    setDisabled(this.steerButton, empty);
    this.steerButton.hidden = !this.running || !this.canSteer;
    this.abortButton.hidden = !this.running;
  }

  private showHint(text: string): void {
    this.hint.textContent = text;
    this.hint.hidden = false;
  }

  /** Grows the textarea with its content up to the stylesheet's max-height (where `field-sizing` is unsupported). */
  private autosize(): void {
    if (SUPPORTS_FIELD_SIZING) return;
    const ta = this.textarea;
    ta.style.height = 'auto';
    ta.style.height = `${ta.scrollHeight + 2}px`;
  }
}

const SUPPORTS_FIELD_SIZING = typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content');
