// The @vscode-elements custom elements the views create (infra/dom.ts: vscodeButton, badge), registered once per bundle.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
