// The skill marketplace over stdio (issue #15): the real core against a local index (test/support/skillIndexServer.ts)
// named by CATALYST_CODE_SKILLS_INDEX_URL — consent first, then search, install, update and remove, and downloads that
// must be refused without writing anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreEvent } from '../support/coreProcess';
import { startScenario, type Scenario } from '../support/coreScenario';
import { startSkillIndexServer, type IndexSnapshot, type SkillIndexServer } from '../support/skillIndexServer';

const SCENARIO = { timeout: 60_000 };
const DISCLAIMER = 'skill explorer disclaimer must be accepted before browsing or managing marketplace skills';
const SKILL_MD = '---\nname: tidy\ndescription: Tidy the imports\n---\nSort every import block.\n';

const goodSnapshot = (hash = 'h1', body = SKILL_MD): IndexSnapshot => ({
  files: [
    { path: 'SKILL.md', contents: body },
    { path: 'rules/order.md', contents: 'std first\n' },
  ],
  hash,
});

interface Market {
  s: Scenario;
  index: SkillIndexServer;
  /** Sends a command and resolves with its marketplace and skills events, up to the first of the given types. */
  ask(cmd: object, until: string[]): Promise<CoreEvent[]>;
  close(): Promise<void>;
}

async function startMarket(snapshots: Record<string, IndexSnapshot> = {}): Promise<Market> {
  const index = await startSkillIndexServer({
    results: [
      { id: 'acme/skills/tidy', skillId: 'tidy', name: 'tidy', installs: 10, source: 'acme/skills' },
      { id: 'b', name: 'alpha', installs: 99, source: 'acme/skills' },
      { id: 'c', name: 'beta', installs: 99, source: 'acme/skills' },
      { id: 'd', name: 'evil', installs: 1000, source: 'https://evil.test/x' },
      { id: 'e', name: '../escape', installs: 1000, source: 'acme/skills' },
    ],
    snapshots: { 'acme/skills/tidy': goodSnapshot(), ...snapshots },
  });
  const s = await startScenario({ env: { CATALYST_CODE_SKILLS_INDEX_URL: index.url } });
  return {
    s,
    index,
    async ask(cmd, until) {
      const from = s.core.events.length;
      s.core.send(cmd);
      const last = await s.core.waitFor((e) => until.includes(e.type), { from });
      // Only the marketplace's answers and `skills`: the core may emit unrelated events meanwhile (rules, info).
      return s.core.events
        .slice(from, s.core.events.indexOf(last) + 1)
        .filter((e) => e.type === 'skills' || e.type.startsWith('skill_marketplace_'));
    },
    async close() {
      await s.close();
      await index.close();
    },
  };
}

const accept = (m: Market) => m.ask({ type: 'accept_skill_disclaimer' }, ['skill_marketplace_state', 'skill_marketplace_error']);
const errorOf = (events: CoreEvent[]) => events.find((e) => e.type === 'skill_marketplace_error')?.message;

test(
  'nothing but listing works before the disclaimer is accepted; accepting writes the consent file with mode 0600',
  SCENARIO,
  async () => {
    const m = await startMarket();
    try {
      const before = await m.ask({ type: 'list_marketplace_skills' }, ['skill_marketplace_state']);
      assert.deepEqual(before.at(-1), { ...before.at(-1), disclaimer_accepted: false, installed: [] });
      for (const cmd of [
        { type: 'search_marketplace_skills', query: 'tidy' },
        { type: 'install_marketplace_skill', source: 'acme/skills', name: 'tidy', scope: 'project' },
        { type: 'update_marketplace_skill', name: 'tidy', scope: 'global' },
        { type: 'remove_marketplace_skill', name: 'tidy', scope: 'global' },
      ]) {
        assert.equal(errorOf(await m.ask(cmd, ['skill_marketplace_error'])), DISCLAIMER, cmd.type);
      }
      assert.equal(m.index.requests.length, 0, 'the index was never asked');
      assert.ok(!existsSync(join(m.s.core.workspace, '.catalyst-code', 'skills')), 'nothing was written');
      const after = await accept(m);
      assert.equal(after.at(-1)!.disclaimer_accepted, true);
      const consent = join(m.s.core.home, '.config', 'catalyst-code', 'skill-explorer.json');
      assert.deepEqual(JSON.parse(readFileSync(consent, 'utf8')), { disclaimer_accepted: true });
      assert.equal(statSync(consent).mode & 0o777, 0o600);
    } finally {
      await m.close();
    }
  },
);

test('search: at least 2 characters; valid results only, most installs first then by name; upstream request shape', SCENARIO, async () => {
  const m = await startMarket();
  try {
    await accept(m);
    assert.equal(
      errorOf(await m.ask({ type: 'search_marketplace_skills', query: ' t ' }, ['skill_marketplace_error'])),
      'skill search requires at least 2 characters',
    );
    const events = await m.ask({ type: 'search_marketplace_skills', query: ' tidy ' }, [
      'skill_marketplace_results',
      'skill_marketplace_error',
    ]);
    const results = events.at(-1)!;
    assert.equal(results.type, 'skill_marketplace_results');
    assert.equal(results.query, 'tidy');
    assert.deepEqual(
      results.skills.map((s: any) => s.name),
      ['alpha', 'beta', 'tidy'],
    );
    assert.deepEqual(results.skills[2], { id: 'acme/skills/tidy', skillId: 'tidy', name: 'tidy', installs: 10, source: 'acme/skills' });
    assert.deepEqual(m.index.requests, [{ path: '/api/search', query: { q: 'tidy', limit: '50' }, userAgent: 'catcode-skills' }]);
  } finally {
    await m.close();
  }
});

test('install into the project, update (unchanged, then updated), remove: lock file, files, events and skills', SCENARIO, async () => {
  const m = await startMarket();
  try {
    await accept(m);
    const ws = realpathSync(m.s.core.workspace);
    const folder = join(ws, '.catalyst-code', 'skills', 'tidy');
    const installed = await m.ask({ type: 'install_marketplace_skill', source: 'acme/skills', name: 'tidy', scope: 'workspace' }, [
      'skills',
      'skill_marketplace_error',
    ]);
    assert.deepEqual(
      installed.map((e) => e.type),
      ['skill_marketplace_changed', 'skills'],
    );
    assert.deepEqual(installed[0], { ...installed[0], action: 'installed', name: 'tidy', scope: 'project' });
    assert.deepEqual(installed[1].skills, [
      { name: 'tidy', description: 'Tidy the imports', location: join(folder, 'SKILL.md'), content: 'Sort every import block.' },
    ]);
    assert.equal(readFileSync(join(folder, 'rules', 'order.md'), 'utf8'), 'std first\n');
    assert.deepEqual(JSON.parse(readFileSync(join(ws, 'skills-lock.json'), 'utf8')), {
      version: 1,
      skills: { tidy: { source: 'acme/skills', sourceType: 'github', skillPath: 'SKILL.md', computedHash: 'h1' } },
    });
    assert.deepEqual(readdirSync(join(ws, '.catalyst-code', 'skills')), ['tidy'], 'no staging or backup folder is left');
    const state = (await m.ask({ type: 'list_marketplace_skills' }, ['skill_marketplace_state'])).at(-1)!;
    assert.deepEqual(state.installed, [{ name: 'tidy', source: 'acme/skills', scope: 'project', hash: 'h1', location: folder }]);

    const same = await m.ask({ type: 'update_marketplace_skill', name: 'tidy', scope: 'project' }, ['skills', 'skill_marketplace_error']);
    assert.equal(same[0].action, 'unchanged');
    m.index.snapshots.set('acme/skills/tidy', { files: [{ path: 'SKILL.md', contents: SKILL_MD.replace('Sort', 'Group') }], hash: 'h2' });
    const updated = await m.ask({ type: 'update_marketplace_skill', name: 'tidy', scope: 'project' }, [
      'skills',
      'skill_marketplace_error',
    ]);
    assert.equal(updated[0].action, 'updated');
    assert.equal(updated[1].skills[0].content, 'Group every import block.');
    assert.ok(!existsSync(join(folder, 'rules')), "the new snapshot replaced the folder: the old version's extra file is gone");
    assert.equal(JSON.parse(readFileSync(join(ws, 'skills-lock.json'), 'utf8')).skills.tidy.computedHash, 'h2');

    const removed = await m.ask({ type: 'remove_marketplace_skill', name: 'tidy', scope: 'project' }, [
      'skills',
      'skill_marketplace_error',
    ]);
    assert.equal(removed[0].action, 'removed');
    assert.deepEqual(removed[1].skills, []);
    assert.ok(!existsSync(folder));
    assert.deepEqual(JSON.parse(readFileSync(join(ws, 'skills-lock.json'), 'utf8')).skills, {});
    assert.equal(
      errorOf(await m.ask({ type: 'remove_marketplace_skill', name: 'tidy', scope: 'project' }, ['skill_marketplace_error'])),
      "skill 'tidy' is not managed in project scope",
    );
  } finally {
    await m.close();
  }
});

test('install into the user scope writes under ~/.catalyst-code, and its lock file there', SCENARIO, async () => {
  const m = await startMarket();
  try {
    await accept(m);
    const events = await m.ask({ type: 'install_marketplace_skill', source: 'acme/skills', name: 'tidy', scope: 'user' }, [
      'skills',
      'skill_marketplace_error',
    ]);
    assert.deepEqual(events[0], { ...events[0], action: 'installed', scope: 'global' });
    assert.ok(existsSync(join(m.s.core.home, '.catalyst-code', 'skills', 'tidy', 'SKILL.md')));
    assert.equal(
      JSON.parse(readFileSync(join(m.s.core.home, '.catalyst-code', 'skills-lock.json'), 'utf8')).skills.tidy.computedHash,
      'h1',
    );
    assert.ok(!existsSync(join(m.s.core.workspace, 'skills-lock.json')), 'the project is untouched');
  } finally {
    await m.close();
  }
});

/** A snapshot of a valid SKILL.md and these other files. */
const withSkillMd = (...files: Array<{ path: string; contents: string }>): IndexSnapshot => ({
  files: [{ path: 'SKILL.md', contents: SKILL_MD }, ...files],
  hash: 'h',
});

const MALICIOUS: Array<[string, IndexSnapshot, string]> = [
  ['a ../ path', withSkillMd({ path: '../escaped.md', contents: 'x' }), 'unsafe skill path: ../escaped.md'],
  ['an absolute path', withSkillMd({ path: '/tmp/abs.md', contents: 'x' }), 'unsafe skill path: /tmp/abs.md'],
  ['a nested ../', withSkillMd({ path: 'a/../../b.md', contents: 'x' }), 'unsafe skill path: a/../../b.md'],
  ['no SKILL.md', { files: [{ path: 'README.md', contents: '# hi' }], hash: 'h' }, 'skill snapshot does not contain a root SKILL.md'],
  [
    'a SKILL.md without frontmatter',
    { files: [{ path: 'SKILL.md', contents: 'just text' }], hash: 'h' },
    'downloaded SKILL.md has no YAML frontmatter',
  ],
  [
    'too many files',
    withSkillMd(...Array.from({ length: 1000 }, (_, i) => ({ path: `f${i}.md`, contents: '' }))),
    'skill snapshot has an invalid file count (max 1000)',
  ],
  ['no hash', { files: [{ path: 'SKILL.md', contents: SKILL_MD }], hash: ' ' }, 'skill snapshot has no content hash'],
  ['a malformed body', { files: 'SKILL.md' }, 'invalid skills.sh download response: expected {files:[{path, contents}], hash}'],
];

test('a malicious or malformed download is refused and nothing is written', SCENARIO, async () => {
  const snapshots = Object.fromEntries(MALICIOUS.map(([, snapshot], i) => [`acme/skills/bad${i}`, snapshot]));
  const m = await startMarket(snapshots);
  try {
    await accept(m);
    const ws = realpathSync(m.s.core.workspace);
    for (const [what, , message] of MALICIOUS) {
      const i = MALICIOUS.findIndex(([w]) => w === what);
      const events = await m.ask({ type: 'install_marketplace_skill', source: 'acme/skills', name: `bad${i}`, scope: 'project' }, [
        'skill_marketplace_changed',
        'skill_marketplace_error',
      ]);
      assert.equal(errorOf(events), message, what);
    }
    for (const [cmd, message] of [
      [{ source: 'https://evil.test/x', name: 'tidy' }, 'skill source must be a GitHub owner/repository identifier'],
      [{ source: 'acme/skills', name: '../escape' }, 'skill name contains unsupported characters'],
      [{ source: 'acme/skills', name: 'tidy', scope: 'elsewhere' }, "skill scope must be 'project' or 'global'"],
    ] as const) {
      const events = await m.ask({ type: 'install_marketplace_skill', scope: 'project', ...cmd }, ['skill_marketplace_error', 'skills']);
      assert.equal(errorOf(events), message);
    }
    assert.deepEqual(
      m.index.requests.map((r) => r.path),
      MALICIOUS.map((_, i) => `/api/download/acme/skills/bad${i}`),
      'an invalid source, name or scope never reaches the index',
    );
    const skillsDir = join(ws, '.catalyst-code', 'skills');
    assert.deepEqual(existsSync(skillsDir) ? readdirSync(skillsDir) : [], [], 'no skill folder, staging folder or stray file');
    assert.ok(!existsSync(join(ws, '.catalyst-code', 'escaped.md')) && !existsSync(join(ws, 'escaped.md')) && !existsSync('/tmp/abs.md'));
    assert.ok(!existsSync(join(ws, 'skills-lock.json')), 'no lock file');
  } finally {
    await m.close();
  }
});

test("an install never replaces a skill folder the marketplace did not install (the user's own)", SCENARIO, async () => {
  const m = await startMarket();
  try {
    await accept(m);
    const own = join(m.s.core.home, '.catalyst-code', 'skills', 'tidy');
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'SKILL.md'), '---\nname: tidy\n---\nMy own tidy rules.\n');
    const events = await m.ask({ type: 'install_marketplace_skill', source: 'acme/skills', name: 'tidy', scope: 'global' }, [
      'skills',
      'skill_marketplace_error',
    ]);
    assert.equal(
      errorOf(events),
      "a skill folder 'tidy' the marketplace did not install already exists in global scope; rename or remove it first",
    );
    assert.equal(readFileSync(join(own, 'SKILL.md'), 'utf8'), '---\nname: tidy\n---\nMy own tidy rules.\n');
    assert.ok(!existsSync(join(m.s.core.home, '.catalyst-code', 'skills-lock.json')));
  } finally {
    await m.close();
  }
});
