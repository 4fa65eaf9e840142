// Builds the bundles (BRIEF §2): dist/extension.js (CJS, vscode external), dist/core.js (Node), and for the browser
// dist/webview.js (the chat), dist/controlCenter.js (the Goal Control Center's panel), dist/highlighter.js (highlight.js,
// loaded by both on their first code block).
// Prints each bundle's size against its budget (BRIEF §5).
//   --dev    unminified, inline source maps
//   --watch  a dev build that rebuilds on every change (`npm run watch`, .vscode/tasks.json); see watchReporter
import * as esbuild from 'esbuild';
import { statSync, mkdirSync, existsSync, copyFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const dev = watch || process.argv.includes('--dev');
mkdirSync('dist', { recursive: true });

const common = {
  bundle: true,
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  logLevel: watch ? 'silent' : 'warning',
  legalComments: 'none',
};
// ESM-only dependencies (fdir via tinyglobby) read import.meta.url, which is empty in a CJS bundle.
const cjsImportMeta = {
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};
/**
 * The core uses only htmlparser2's streaming Parser (src/core/web/htmlText.ts); its index also re-exports DomUtils, whose
 * serializer pulls in the entity *encoding* tables as well (~70 KB minified). The package's exports map hides the
 * Parser module, so the bundle resolves the bare name to it directly.
 */
const htmlparser2ParserOnly = {
  name: 'htmlparser2-parser-only',
  setup(build) {
    build.onResolve({ filter: /^htmlparser2$/ }, () => ({
      path: new URL('../node_modules/htmlparser2/dist/esm/Parser.js', import.meta.url).pathname,
    }));
  },
};
const targets = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    ...cjsImportMeta,
    budget: 400,
  },
  {
    entryPoints: ['src/core/main.ts'],
    outfile: 'dist/core.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    ...cjsImportMeta,
    plugins: [htmlparser2ParserOnly],
    budget: 600,
  },
  { entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', budget: 350 },
  // The Goal Control Center's panel loads only its own bundle (webviewScriptFor), so the chat's does not carry goal mode.
  {
    entryPoints: ['webview/controlCenterMain.ts'],
    outfile: 'dist/controlCenter.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    budget: 350,
  },
  // highlight.js: both webviews load it on their first code block (webview/markdown/highlighterLoader.ts), not at start.
  {
    entryPoints: ['webview/highlighterMain.ts'],
    outfile: 'dist/highlighter.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    budget: 120,
  },
  { entryPoints: ['webview/styles.css'], outfile: 'dist/webview.css', budget: 60 },
].filter((t) => existsSync(t.entryPoints[0]));

// The webview loads the codicon font from the extension (its CSP allows no other origin).
if (existsSync('webview/main.ts')) {
  mkdirSync('dist/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
}

const sizeKb = (file) => statSync(file).size / 1024;

if (watch) {
  const report = watchReporter();
  for (const { budget, ...opts } of targets) {
    const ctx = await esbuild.context({ ...common, ...opts, plugins: [...(opts.plugins ?? []), report(opts.outfile)] });
    await ctx.watch();
  }
} else {
  for (const { budget, ...opts } of targets) {
    await esbuild.build({ ...common, ...opts });
    const kb = sizeKb(opts.outfile);
    const verdict = kb <= budget ? 'ok' : 'OVER BUDGET';
    console.log(`${opts.outfile.padEnd(24)} ${kb.toFixed(1).padStart(7)} KB  (budget ${budget} KB: ${verdict})`);
  }
}

// Each bundle has its own esbuild context, and one change can rebuild several of them at once. The reporter makes one
// cycle of all the builds in flight: "[watch] build started", a line per bundle, then every bundle's current errors
// (not only the rebuilt ones', since the problem matcher replaces the whole list each cycle) as
// `file:line:column: error: text`, then "[watch] build finished" — the lines .vscode/tasks.json's problem matcher reads.
function watchReporter() {
  const messagesByBundle = new Map();
  let inFlight = 0;
  return (outfile) => ({
    name: 'watch-reporter',
    setup(build) {
      let startedAt = 0;
      build.onStart(() => {
        if (inFlight++ === 0) console.log('[watch] build started');
        startedAt = Date.now();
      });
      build.onEnd((result) => {
        messagesByBundle.set(outfile, [...result.errors.map((m) => ['error', m]), ...result.warnings.map((m) => ['warning', m])]);
        const outcome =
          result.errors.length > 0 ? `failed (${count(result.errors.length, 'error')})` : `${sizeKb(outfile).toFixed(1).padStart(7)} KB`;
        console.log(`[watch] ${outfile.padEnd(24)} ${outcome}  ${Date.now() - startedAt} ms`);
        if (--inFlight === 0) finishCycle(messagesByBundle);
      });
    },
  });
}

function finishCycle(messagesByBundle) {
  const severityByLine = new Map();
  for (const messages of messagesByBundle.values())
    for (const [severity, m] of messages) severityByLine.set(messageLine(severity, m), severity);
  for (const line of severityByLine.keys()) console.log(line);
  const errors = [...severityByLine.values()].filter((severity) => severity === 'error').length;
  console.log(`[watch] build finished, ${count(errors, 'error')} (unminified; \`npm run build\` checks the size budgets)`);
}

function count(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** esbuild's line is 1-based and its column 0-based; editors count both from 1. */
function messageLine(severity, { text, location }) {
  if (!location) return `[watch] ${severity}: ${text}`;
  return `${location.file}:${location.line}:${location.column + 1}: ${severity}: ${text}`;
}
