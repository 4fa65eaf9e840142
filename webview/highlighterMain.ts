import { highlightCode } from './markdown/highlight';

// dist/highlighter.js: highlight.js and its languages, which the chat and the Control Center load on their first code
// block (markdown/highlighterLoader.ts) instead of at start.
window.catalystHighlighter = highlightCode;
