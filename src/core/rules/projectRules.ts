/**
 * The project rules in effect: the rules files of the workspace, found, read and capped into the system prompt's
 * section, refreshed on demand (on `init`, before each turn, on `context`) at the cost of a stat per folder and per file
 * when nothing changed. Reads are asynchronous and one at a time: a turn awaits its refresh, which starts after the one
 * in flight (the first, at `init`, may walk thousands of folders) and so carries what it found. Upstream's core reads
 * no rules file (research §5): this is ours.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RulesFileInfo, RulesSkippedFile } from '../../protocol';
import { estimateTokens } from '../platform/tokenEstimate';
import { RulesBudget } from './rulesBudget';
import { RulesFileReader } from './rulesFileReader';
import { applicability } from './rulesFrontmatter';
import { fileBlock, rulesSection, type PromptRulesFile } from './rulesPrompt';
import type { ProjectRulesSettings } from '../config/rulesSettings';
import { RULE_SOURCES, RULE_SOURCE_SPECS, type RuleSource, type RuleSourceSpec } from '../config/ruleSources';
import { RulesWalker, type WalkedFile } from './rulesWalk';

/** At most this many files reach the prompt; the others are listed as skipped. */
export const MAX_RULES_FILES = 64;

export interface RulesSnapshot {
  files: RulesFileInfo[];
  skipped: RulesSkippedFile[];
  disabled: RuleSource[];
  walkLimited: boolean;
  /** The system prompt's section ("" without files). */
  prompt: string;
  /** Its estimated tokens. */
  tokens: number;
}

interface Candidate {
  rel: string;
  source: RuleSource;
  scope: string;
  gitignored: boolean;
  frontmatter?: RuleSourceSpec['frontmatter'];
}

export class ProjectRules {
  private readonly walker: RulesWalker;
  private readonly reader: RulesFileReader;
  private last: RulesSnapshot | undefined;
  private reading: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly workspace: string,
    private readonly settings: ProjectRulesSettings,
  ) {
    const nested = RULE_SOURCE_SPECS.filter((s) => s.nestedName && settings.enabled.has(s.source)).map((s) => s.nestedName!);
    this.walker = new RulesWalker(workspace, new Set(nested));
    this.reader = new RulesFileReader(workspace);
  }

  /** The last snapshot; no files before the first refresh has finished (a turn awaits its own refresh first). */
  current(): RulesSnapshot {
    return this.last ?? this.snapshotOf([], [], [], false);
  }

  /**
   * Re-reads what changed on disk, after any read in flight; `changed` is whether what a client is shown (the `rules`
   * event) differs from the snapshot before.
   */
  refresh(): Promise<{ snapshot: RulesSnapshot; changed: boolean }> {
    const next = this.reading.then(async () => {
      const previous = this.last;
      const snapshot = await this.read();
      this.last = snapshot;
      return { snapshot, changed: !previous || shownPart(previous) !== shownPart(snapshot) };
    });
    this.reading = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<RulesSnapshot> {
    const { candidates, walkLimited } = await this.candidates();
    const budget = new RulesBudget(this.settings);
    const files: RulesFileInfo[] = [];
    const blocks: PromptRulesFile[] = [];
    const skipped: RulesSkippedFile[] = [];
    const reals = new Set<string>();
    const hashes = new Set<string>();
    for (const c of candidates) {
      const skip = (reason: string) => skipped.push({ path: c.rel, source: c.source, reason });
      if (c.gitignored) {
        skip('gitignored');
        continue;
      }
      if (files.length >= MAX_RULES_FILES) {
        skip('too_many_files');
        continue;
      }
      const read = await this.reader.read(c.rel);
      if (!read.ok) {
        skip(read.reason);
        continue;
      }
      const hash = createHash('sha256').update(read.bytes).digest('hex');
      if (reals.has(read.real) || hashes.has(hash)) {
        skip('duplicate');
        continue;
      }
      const size = this.reader.sizeOf(read.real) ?? read.bytes.length;
      const content = contentOf(c, read.bytes, size);
      if (!content.applies) {
        skip(content.reason);
        continue;
      }
      reals.add(read.real);
      hashes.add(hash);
      const capped = budget.take(c.rel, content.bytes, content.size);
      const block: PromptRulesFile = {
        path: c.rel,
        source: c.source,
        scope: c.scope,
        text: capped.text,
        ...(content.when ? { when: content.when } : {}),
      };
      blocks.push(block);
      files.push({
        path: c.rel,
        source: c.source,
        bytes: size,
        tokens: estimateTokens(fileBlock(block)),
        truncated: capped.truncated,
        scope: c.scope,
      });
    }
    this.reader.keepOnly(reals);
    return this.snapshotOf(files, skipped, blocks, walkLimited);
  }

  private snapshotOf(files: RulesFileInfo[], skipped: RulesSkippedFile[], blocks: PromptRulesFile[], walkLimited: boolean): RulesSnapshot {
    const prompt = rulesSection(blocks);
    const disabled = RULE_SOURCES.filter((s) => !this.settings.enabled.has(s));
    return { files, skipped, disabled, walkLimited, prompt, tokens: prompt ? estimateTokens(prompt) : 0 };
  }

  /** Every candidate, in prompt order: by source precedence, then root first, then by depth and path. */
  private async candidates(): Promise<{ candidates: Candidate[]; walkLimited: boolean }> {
    const enabled = RULE_SOURCE_SPECS.filter((s) => this.settings.enabled.has(s.source));
    const walk = enabled.some((s) => s.nestedName) ? await this.walker.walk() : { files: [], limited: false };
    const perSource = await Promise.all(
      enabled.map((spec) => (spec.nestedName ? nestedCandidates(spec, walk.files) : this.rootCandidates(spec))),
    );
    return { candidates: perSource.flat(), walkLimited: walk.limited };
  }

  private async rootCandidates(spec: RuleSourceSpec): Promise<Candidate[]> {
    const rel = spec.rootPath!;
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(path.join(this.workspace, rel));
    } catch {
      return [];
    }
    const one = async (p: string, isDirectory = false): Promise<Candidate> => ({
      rel: p,
      source: spec.source,
      scope: '.',
      gitignored: await this.walker.ignoredAtRoot(p, isDirectory),
      ...(spec.frontmatter ? { frontmatter: spec.frontmatter } : {}),
    });
    if (!stat.isDirectory()) return spec.folderOnly ? [] : [await one(rel)];
    if (!spec.folderSuffix) return [];
    if (await this.walker.ignoredAtRoot(rel, true)) return [await one(rel, true)];
    const names = await filesIn(path.join(this.workspace, rel), spec.folderSuffix);
    return Promise.all(names.map((name) => one(`${rel}/${name}`)));
  }
}

function nestedCandidates(spec: RuleSourceSpec, walked: readonly WalkedFile[]): Candidate[] {
  return walked
    .filter((f) => f.name === spec.nestedName)
    .sort((a, b) => depth(a.dir) - depth(b.dir) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .map((f) => ({ rel: f.rel, source: spec.source, scope: f.dir, gitignored: f.gitignored }));
}

function depth(dir: string): number {
  return dir === '.' ? 0 : dir.split('/').length;
}

/** What of a file reaches the prompt: all of it, or (a file with a frontmatter) its body, if it applies without asking. */
function contentOf(
  c: Candidate,
  bytes: Buffer,
  size: number,
): { applies: true; bytes: Buffer; size: number; when?: string } | { applies: false; reason: string } {
  if (!c.frontmatter) return { applies: true, bytes, size };
  const found = applicability(c.frontmatter, bytes.toString('utf8'));
  if (!found.applies) return found;
  const body = Buffer.from(found.body);
  // A file read only in part (MAX_READ_BYTES) keeps its unread rest in the size the cut marker names.
  return { applies: true, bytes: body, size: body.length + (size - bytes.length), ...(found.when ? { when: found.when } : {}) };
}

async function filesIn(dir: string, suffix: string): Promise<string[]> {
  try {
    return (await fs.promises.readdir(dir, { withFileTypes: true }))
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith(suffix))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function shownPart(s: RulesSnapshot): string {
  return JSON.stringify([s.files, s.skipped, s.disabled, s.walkLimited]);
}
