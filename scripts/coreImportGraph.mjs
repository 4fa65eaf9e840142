#!/usr/bin/env node
/**
 * The import graph of src/core held against the level table (CORE_LEVELS in eslint.config.mjs): prints every folder
 * arrow that points up or sideways (an import of a folder on the importer's own level or above), every folder that has
 * no level, and every cycle of files. Exits 1 when there is any of them, so CI can run it beside `npm run lint`.
 *
 *   node scripts/coreImportGraph.mjs            the findings
 *   node scripts/coreImportGraph.mjs --arrows   also every folder arrow with its level numbers
 *
 * Product files only (tests may compose any levels). Relative imports, `export … from` and `import()` are read with
 * the TypeScript parser; `import type` counts (a type cycle is still a cycle to a reader) and is marked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { CORE_LEVELS, levelOf } from '../eslint.config.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const coreDir = path.join(repo, 'src', 'core');

function productFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(abs);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [abs] : [];
  });
}

/** The relative module specifiers a file imports, each with whether the import is for types only. */
function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || allTypeSpecifiers(clause));
      found.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push({ spec: arg.text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((i) => i.spec.startsWith('.'));
}

function allTypeSpecifiers(clause) {
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

function resolve(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The folder of src/core a file belongs to: its first path segment ('main.ts' for a file at the top). */
function folderOf(file) {
  return path.relative(coreDir, file).split(path.sep)[0];
}

const rel = (file) => path.relative(repo, file).split(path.sep).join('/');

const files = productFiles(coreDir).sort();
/** file → [{ to, typeOnly }] within src/core */
const edges = new Map();
for (const file of files) {
  const targets = [];
  for (const { spec, typeOnly } of importsOf(file)) {
    const to = resolve(file, spec);
    if (to && to.startsWith(coreDir + path.sep)) targets.push({ to, typeOnly });
  }
  edges.set(file, targets);
}

// Folder arrows: from → to → { files: Set, typeOnly: boolean }
const arrows = new Map();
for (const [file, targets] of edges) {
  const from = folderOf(file);
  for (const { to, typeOnly } of targets) {
    const toFolder = folderOf(to);
    if (toFolder === from) continue;
    const key = `${from} -> ${toFolder}`;
    const arrow = arrows.get(key) ?? { from, to: toFolder, importers: new Set(), typeOnly: true };
    arrow.importers.add(rel(file));
    arrow.typeOnly &&= typeOnly;
    arrows.set(key, arrow);
  }
}

const unlevelled = [...new Set(files.map(folderOf))].filter((folder) => levelOf(folder) === undefined).sort();
const wrongWay = [...arrows.values()].filter((a) => {
  const [from, to] = [levelOf(a.from), levelOf(a.to)];
  return from !== undefined && to !== undefined && to >= from;
});

// Cycles of files: the strongly connected components with more than one file (Tarjan), and files importing themselves.
function fileCycles() {
  let index = 0;
  const stack = [];
  const state = new Map();
  const cycles = [];
  const connect = (v) => {
    const s = { index, low: index, onStack: true };
    index++;
    state.set(v, s);
    stack.push(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!state.has(to)) {
        connect(to);
        s.low = Math.min(s.low, state.get(to).low);
      } else if (state.get(to).onStack) s.low = Math.min(s.low, state.get(to).index);
    }
    if (s.low === s.index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        state.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      const selfLoop = (edges.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfLoop) cycles.push(component.map(rel).sort());
    }
  };
  for (const file of files) if (!state.has(file)) connect(file);
  return cycles;
}
const cycles = fileCycles();

const levelText = (folder) => String(levelOf(folder) ?? '?');
if (process.argv.includes('--arrows')) {
  console.log(`folder arrows (${arrows.size}):`);
  for (const a of [...arrows.values()].sort((x, y) => (levelOf(y.from) ?? 99) - (levelOf(x.from) ?? 99) || x.from.localeCompare(y.from))) {
    console.log(`  ${a.from} (${levelText(a.from)}) -> ${a.to} (${levelText(a.to)})${a.typeOnly ? '  [types only]' : ''}`);
  }
}
console.log(`src/core: ${files.length} product files, ${arrows.size} folder arrows, levels from CORE_LEVELS (${CORE_LEVELS.length} rows)`);
console.log(`folders without a level: ${unlevelled.length}${unlevelled.length ? ` (${unlevelled.join(', ')})` : ''}`);
console.log(`arrows up or sideways: ${wrongWay.length}`);
for (const a of wrongWay) {
  console.log(
    `  ${a.from} (${levelText(a.from)}) -> ${a.to} (${levelText(a.to)})${a.typeOnly ? '  [types only]' : ''}: ${[...a.importers].join(', ')}`,
  );
}
console.log(`cycles of files: ${cycles.length}`);
for (const cycle of cycles) console.log(`  ${cycle.join(' <-> ')}`);
process.exitCode = unlevelled.length + wrongWay.length + cycles.length > 0 ? 1 : 0;
