import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SLASH_COMMANDS, runSlashCommand, type SlashTarget } from './slashCommands';

function recorder(): { target: SlashTarget; calls: string[] } {
  const calls: string[] = [];
  const target = new Proxy({} as SlashTarget, {
    get:
      (_t, name: string) =>
      (...args: unknown[]) => {
        calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(',')})`);
        return name !== 'notify';
      },
  });
  return { target, calls };
}

test('every slash command maps to its intent', () => {
  const cases: [string, string, string][] = [
    ['new', '', 'newSession()'],
    ['sessions', '', 'listSessions()'],
    ['undo', '', 'undo()'],
    ['compact', '', 'compact()'],
    ['compact', ' keep the API notes ', 'compact("keep the API notes")'],
    ['stats', '', 'stats()'],
    ['context', '', 'context()'],
    ['model', 'gpt-x', 'setModel("gpt-x")'],
    ['reasoning', 'high', 'setReasoning("high")'],
    ['approval', 'never', 'setApprovalMode("never")'],
    ['abort', '', 'abort()'],
    ['clear', '', 'clear()'],
    ['reset', '', 'reset()'],
    ['steer', 'use tabs', 'steer("use tabs")'],
    ['memory', 'we use pnpm', 'saveMemory("we use pnpm")'],
    ['agents', '', 'listAgents()'],
    ['skills', '', 'listSkills()'],
    ['skill', 'lint', 'applySkill("lint","")'],
    ['skill', 'lint  only src/\n and tests', 'applySkill("lint","only src/\\n and tests")'],
    ['goal', ' ship the parser ', 'startGoal({"goal":"ship the parser","autoDeploy":false})'],
    ['goal', '', 'goalAction("refresh")'],
    ['plugin', 'lint', 'pluginCommand("lint","")'],
    ['plugin', ' lint  src/a.ts  --fix ', 'pluginCommand("lint","src/a.ts  --fix")'],
  ];
  for (const [name, args, expected] of cases) {
    const { target, calls } = recorder();
    assert.equal(runSlashCommand(target, name, args), true, name);
    assert.deepEqual(calls, [expected]);
  }
  const covered = new Set([...cases.map(([n]) => n), 'help', 'vision', 'usage']);
  assert.deepEqual(
    SLASH_COMMANDS.map((c) => c.name).filter((n) => !covered.has(n)),
    [],
  );
});

test('a missing argument, an unknown command and /help are notices', () => {
  const missing = recorder();
  assert.equal(runSlashCommand(missing.target, 'model', '  '), false);
  assert.match(missing.calls[0], /^notify\("warning","\/model needs <model id>\."\)$/);
  const unknown = recorder();
  runSlashCommand(unknown.target, 'frobnicate', '');
  assert.match(unknown.calls[0], /Unknown command \/frobnicate/);
  const vision = recorder();
  assert.equal(runSlashCommand(vision.target, 'vision', ''), false, 'the host opens its QuickPick before this');
  assert.match(vision.calls[0], /Catalyst: Vision Settings…/);
  const usage = recorder();
  assert.equal(runSlashCommand(usage.target, 'usage', ''), false, 'the host runs Show Usage before this');
  assert.match(usage.calls[0], /Catalyst: Show Usage/);
  const help = recorder();
  runSlashCommand(help.target, 'help', '');
  assert.match(help.calls[0], /^notify\("info","Slash commands:/);
  for (const c of SLASH_COMMANDS) assert.ok(help.calls[0].includes(`/${c.name}`));
});
