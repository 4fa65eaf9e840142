/** The workspace's .gitignore files (every directory's, plus .git/info/exclude), loaded lazily and cached. */
import fs from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

type Ignore = ignore.Ignore;

export class GitignoreRules {
  private readonly rulesByDir = new Map<string, Promise<Ignore | undefined>>();

  constructor(private readonly workspace: string) {}

  /** Whether a workspace-relative path (forward slashes) is ignored by the .gitignore of any directory above it. */
  async ignores(relPath: string, isDirectory: boolean): Promise<boolean> {
    const parts = relPath.split('/');
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = await this.rulesFor(parts.slice(0, depth).join('/'));
      const below = parts.slice(depth).join('/') + (isDirectory ? '/' : '');
      if (rules?.ignores(below)) return true;
    }
    return false;
  }

  private rulesFor(dir: string): Promise<Ignore | undefined> {
    let rules = this.rulesByDir.get(dir);
    if (!rules) {
      rules = this.load(dir);
      this.rulesByDir.set(dir, rules);
    }
    return rules;
  }

  private async load(dir: string): Promise<Ignore | undefined> {
    const sources = [path.join(this.workspace, dir, '.gitignore')];
    if (dir === '') sources.push(path.join(this.workspace, '.git', 'info', 'exclude'));
    const texts = await Promise.all(sources.map((file) => fs.readFile(file, 'utf8').catch(() => '')));
    const text = texts.join('\n');
    return text.trim() === '' ? undefined : ignore().add(text);
  }
}
