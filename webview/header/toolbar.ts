import { type ApprovalMode, type SessionState, APPROVAL_MODES } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { escalationLines } from '../../src/shared/escalationText';
import { supports } from '../infra/capabilities';
import { h, iconButton, replaceChildren } from '../infra/dom';
import { groupModels, modelLabel, reasoningLevels } from './modelOptions';
import { RulesChip } from './rulesChip';
import { statusOf } from './statusText';
import { contextMeterOf, usageSummary } from './usageFormat';

const MODE_LABELS: Record<ApprovalMode, string> = {
  never: 'Auto-approve everything',
  destructive: 'Ask before edits & commands',
  always: 'Ask before every tool',
};

/** An SCV server takes its approval policy on the command line only: the picker shows it and cannot change it. */
const SCV_APPROVAL_MODE_TITLE = "SCV's approval policy is set when the server starts (catalystCode.scv.approvalPolicy)";

/**
 * The header: core status, usage and context meter, the sessions (when the core has them) and new-session buttons;
 * below, the model, reasoning-effort and approval-mode pickers. Each part re-renders only when its inputs changed.
 */
export class Toolbar {
  readonly root: HTMLElement;
  private readonly status = h('span', { class: 'core-status', 'data-testid': TEST_IDS.coreStatus, role: 'status' });
  private readonly usage = h('span', { class: 'usage' });
  private readonly meterFill = h('span', { class: 'meter-fill' });
  private readonly meterLabel = h('span', { class: 'meter-label' });
  private readonly meter = h(
    'span',
    {
      class: 'context-meter',
      'data-testid': TEST_IDS.contextMeter,
      role: 'meter',
      'aria-label': 'Context window used',
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      hidden: true,
    },
    h('span', { class: 'meter-bar' }, this.meterFill),
    this.meterLabel,
  );
  private readonly modelPicker = h('select', { class: 'picker model-picker', 'data-testid': TEST_IDS.modelPicker, 'aria-label': 'Model' });
  private readonly reasoningPicker = h('select', {
    class: 'picker',
    'data-testid': TEST_IDS.reasoningPicker,
    'aria-label': 'Reasoning effort',
    hidden: true,
  });
  private readonly modePicker = h('select', { class: 'picker', 'data-testid': TEST_IDS.approvalModePicker, 'aria-label': 'Approval mode' });
  readonly sessionsButton: HTMLButtonElement;
  private readonly rulesChip: RulesChip;
  /** The inputs each part was last rendered from; patches replace values, so identity tells what changed. */
  private readonly rendered = new Map<string, readonly unknown[]>();

  constructor(post: (message: WebviewToHost) => void, onToggleSessions: () => void) {
    this.sessionsButton = iconButton('history', 'Sessions', onToggleSessions, TEST_IDS.sessionsButton);
    this.sessionsButton.setAttribute('aria-expanded', 'false');
    const newSession = iconButton('add', 'New session', () => post({ type: 'newSession' }), TEST_IDS.newSessionButton);
    this.rulesChip = new RulesChip(post);
    for (const mode of APPROVAL_MODES) this.modePicker.appendChild(h('option', { value: mode }, MODE_LABELS[mode]));
    this.modelPicker.addEventListener('change', () => this.postModel(post));
    this.reasoningPicker.addEventListener(
      'change',
      () => this.reasoningPicker.value && post({ type: 'setReasoning', effort: this.reasoningPicker.value }),
    );
    this.modePicker.addEventListener('change', () => post({ type: 'setApprovalMode', mode: this.modePicker.value as ApprovalMode }));
    this.root = h(
      'header',
      { class: 'toolbar' },
      h('div', { class: 'toolbar-row' }, this.status, this.usage, this.meter, this.rulesChip.root, this.sessionsButton, newSession),
      h('div', { class: 'toolbar-row pickers' }, this.modelPicker, this.reasoningPicker, this.modePicker),
    );
  }

  update(state: SessionState): void {
    this.part('status', [state.core, state.run], () => this.renderStatus(state));
    this.part('usage', [state.usage, state.context], () => this.renderUsage(state));
    this.part('models', [state.models, state.model, state.provider], () => this.renderModels(state));
    this.part('reasoning', [state.models, state.model, state.reasoningEffort], () => this.renderReasoning(state));
    this.part('mode', [state.approvalMode, state.core, state.approvalEscalations], () => this.renderMode(state));
    this.part('sessions', [state.core], () => (this.sessionsButton.hidden = !supports(state, 'sessions')));
    this.part('rules', [state.rules], () => this.rulesChip.update(state.rules));
  }

  setSessionsOpen(open: boolean): void {
    this.sessionsButton.setAttribute('aria-expanded', String(open));
    this.sessionsButton.classList.toggle('active', open);
  }

  private part(name: string, inputs: readonly unknown[], render: () => void): void {
    const last = this.rendered.get(name);
    if (last && last.length === inputs.length && last.every((v, i) => v === inputs[i])) return;
    this.rendered.set(name, inputs);
    render();
  }

  private renderStatus(state: SessionState): void {
    const { tone, text } = statusOf(state);
    this.status.dataset.status = state.core.status;
    this.status.dataset.run = state.run.status;
    this.status.title = state.core.message ?? text;
    replaceChildren(
      this.status,
      h('span', { class: `status-dot tone-${tone}`, 'aria-hidden': 'true' }),
      h('span', { class: 'status-text' }, text),
    );
  }

  private renderUsage(state: SessionState): void {
    const meter = contextMeterOf(state);
    this.usage.textContent = usageSummary(state);
    this.meter.hidden = !meter;
    if (!meter) return;
    this.meterFill.style.width = `${meter.pct}%`;
    this.meterFill.className = `meter-fill${meter.pct >= 90 ? ' danger' : meter.pct >= 70 ? ' warn' : ''}`;
    this.meterLabel.textContent = meter.label;
    this.meter.title = meter.title;
    this.usage.title = meter.title;
    this.meter.setAttribute('aria-valuenow', String(meter.pct));
    this.meter.setAttribute('aria-valuetext', `${meter.pct}% of the context window`);
  }

  /** The picked model and the provider group it was picked from: the host switches provider first when it is another. */
  private postModel(post: (message: WebviewToHost) => void): void {
    const option = this.modelPicker.selectedOptions[0];
    if (!option?.value) return;
    const provider = option.dataset.provider;
    post({ type: 'setModel', model: option.value, ...(provider ? { provider } : {}) });
  }

  private renderModels(state: SessionState): void {
    // The same id may be listed by two providers: `value` selects the first, the active provider's (its group is first).
    const groups = groupModels(state.models, state.provider);
    const known = state.models.some((m) => m.id === state.model);
    const options: HTMLElement[] = groups.map((g) =>
      h(
        'optgroup',
        { label: g.provider },
        ...g.models.map((m) => h('option', { value: m.id, title: m.id, 'data-provider': m.provider }, modelLabel(m))),
      ),
    );
    if (state.model && !known) options.unshift(h('option', { value: state.model }, state.model));
    if (!state.model) options.unshift(h('option', { value: '', disabled: true }, state.models.length ? 'Choose a model' : 'No models'));
    replaceChildren(this.modelPicker, ...options);
    this.modelPicker.value = state.model ?? '';
    this.modelPicker.disabled = state.models.length === 0 && !state.model;
  }

  private renderMode(state: SessionState): void {
    this.modePicker.value = state.approvalMode;
    const fixed = state.core.kind === 'scv';
    this.modePicker.disabled = fixed;
    // Escalations (Always, Accept for Session, Allow pattern) show on the current mode; the palette's picker clears them.
    const escalations = escalationLines(state.approvalEscalations);
    this.modePicker.dataset.escalations = String(escalations.length);
    for (const option of this.modePicker.options) {
      const mode = option.value as ApprovalMode;
      option.textContent =
        mode === state.approvalMode && escalations.length ? `${MODE_LABELS[mode]} (+${escalations.length} allowed)` : MODE_LABELS[mode];
    }
    if (fixed) this.modePicker.title = SCV_APPROVAL_MODE_TITLE;
    else if (escalations.length)
      this.modePicker.title = [
        'Also allowed without asking in this session:',
        ...escalations.map((e) => `• ${e.label} (${e.description})`),
        'Catalyst: Set Approval Mode… lists and clears them.',
      ].join('\n');
    else this.modePicker.removeAttribute('title');
  }

  private renderReasoning(state: SessionState): void {
    const levels = reasoningLevels(state);
    this.reasoningPicker.hidden = levels.length === 0;
    if (levels.length === 0) return;
    const all = levels.includes(state.reasoningEffort) ? levels : [state.reasoningEffort, ...levels];
    replaceChildren(this.reasoningPicker, ...all.map((level) => h('option', { value: level }, `Reasoning: ${level}`)));
    this.reasoningPicker.value = state.reasoningEffort;
  }
}
