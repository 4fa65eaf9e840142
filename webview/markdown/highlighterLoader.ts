/** Highlighted HTML for `code` in `lang` (escaped plain text when it cannot highlight it). */
export type CodeHighlighter = (code: string, lang: string) => string;

declare global {
  interface Window {
    /** Set by dist/highlighter.js (webview/highlighterMain.ts) when it runs. */
    catalystHighlighter?: CodeHighlighter;
  }
}

/** The file next to the bundle that holds highlight.js: loaded on the first code block, not at start. */
const HIGHLIGHTER_SCRIPT = 'highlighter.js';

// Read while the bundle's own script runs (afterwards document.currentScript is null): the highlighter is its
// sibling, and the CSP lets it run only with the same nonce.
const bundleScript = typeof document === 'undefined' ? null : (document.currentScript as HTMLScriptElement | null);
let loading: Promise<CodeHighlighter> | undefined;

/** The code highlighter, its script added to the page on the first call. */
export function loadHighlighter(): Promise<CodeHighlighter> {
  loading ??= new Promise<CodeHighlighter>((resolve, reject) => {
    if (window.catalystHighlighter) return resolve(window.catalystHighlighter);
    if (!bundleScript?.src) return reject(new Error('the webview bundle did not find its own script'));
    const script = document.createElement('script');
    script.nonce = bundleScript.nonce;
    script.src = new URL(HIGHLIGHTER_SCRIPT, bundleScript.src).href;
    script.addEventListener('load', () =>
      window.catalystHighlighter ? resolve(window.catalystHighlighter) : reject(new Error(`${HIGHLIGHTER_SCRIPT} set no highlighter`)),
    );
    script.addEventListener('error', () => reject(new Error(`${HIGHLIGHTER_SCRIPT} failed to load`)));
    document.head.appendChild(script);
  });
  return loading;
}
