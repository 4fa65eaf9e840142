// Builds the three bundles (BRIEF §2): dist/extension.js (CJS, vscode external), dist/core.js (Node), dist/webview.js (browser).
// Prints each bundle's size against its budget (BRIEF §5).
import * as esbuild from 'esbuild';
import { statSync, mkdirSync, existsSync, copyFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const dev = process.argv.includes('--dev');
mkdirSync('dist', { recursive: true });

const common = { bundle: true, minify: !dev, sourcemap: dev ? 'inline' : false, logLevel: 'warning', legalComments: 'none' };
// ESM-only dependencies (fdir via tinyglobby) read import.meta.url, which is empty in a CJS bundle.
const cjsImportMeta = {
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};
const targets = [
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], ...cjsImportMeta, budget: 400 },
  { entryPoints: ['src/core/main.ts'], outfile: 'dist/core.js', platform: 'node', format: 'cjs', target: 'node20', ...cjsImportMeta, budget: 600 },
  { entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', budget: 350 },
  { entryPoints: ['webview/styles.css'], outfile: 'dist/webview.css', budget: 60 },
].filter((t) => existsSync(t.entryPoints[0]));

// The webview loads the codicon font from the extension (its CSP allows no other origin).
if (existsSync('webview/main.ts')) {
  mkdirSync('dist/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
}

for (const { budget, ...opts } of targets) {
  if (watch) {
    const ctx = await esbuild.context({ ...common, ...opts });
    await ctx.watch();
  } else {
    await esbuild.build({ ...common, ...opts });
    const kb = statSync(opts.outfile).size / 1024;
    const verdict = kb <= budget ? 'ok' : 'OVER BUDGET';
    console.log(`${opts.outfile.padEnd(20)} ${kb.toFixed(1).padStart(7)} KB  (budget ${budget} KB: ${verdict})`);
  }
}
