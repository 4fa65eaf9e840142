import type { SessionState } from '../../src/shared/sessionState';
import { TEST_IDS, type WebviewToHost } from '../../src/shared/webviewMessages';
import { codicon, h, vscodeButton } from '../infra/dom';

/** First run: no provider logged in. Logging in happens in the host (native input boxes). */
export class WelcomePanel {
  readonly root: HTMLElement;

  constructor(post: (message: WebviewToHost) => void) {
    this.root = h(
      'section',
      { class: 'welcome', 'data-testid': TEST_IDS.welcome, hidden: true, 'aria-labelledby': 'welcome-title' },
      h('div', { class: 'welcome-icon' }, codicon('sparkle')),
      h('h2', { id: 'welcome-title' }, 'Welcome to Catalyst Code'),
      h(
        'p',
        {},
        'Connect a model provider to start: OpenRouter, DeepSeek, Anthropic, or any OpenAI-compatible server such as Ollama, LM Studio, llama.cpp or vLLM.',
      ),
      h(
        'div',
        { class: 'welcome-actions' },
        vscodeButton({
          label: 'Log In',
          icon: 'sign-in',
          testId: TEST_IDS.loginButton,
          onClick: () => post({ type: 'action', action: 'login' }),
        }),
        vscodeButton({
          label: 'Open Settings',
          icon: 'gear',
          secondary: true,
          onClick: () => post({ type: 'action', action: 'openSettings' }),
        }),
      ),
      h('p', { class: 'welcome-note' }, 'API keys are kept in VS Code’s secret storage, never in settings or session files.'),
    );
  }

  update(state: SessionState): void {
    this.root.hidden = !isFirstRun(state);
  }
}

/** Models alone do not end it: with nothing logged in the core still lists the default provider's (as upstream's does). */
export function isFirstRun(state: SessionState): boolean {
  return !state.anyLoggedIn;
}
