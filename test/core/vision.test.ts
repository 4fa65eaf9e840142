// Issue #18, vision: vision.json and get/set_vision_config in upstream's payload, the hand-off of an image turn to a
// vision model (research A §10), our describe mode, the pre_turn hook, and the refusal of an image no model can see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScenario, TEST_MODEL, type Scenario, type ScenarioOptions } from '../support/coreScenario';
import { globalPluginsDir, script, tempDir, writePlugin } from '../support/pluginFixtures';

const VISION_CHEAP = 'vision-mini';
const VISION_DEAR = 'vision-pro';
const IMAGE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const HANDOFF_INFO = `vision handoff: ${TEST_MODEL} → ${VISION_CHEAP} (cheapest same-provider)`;

const say = (text: string) => ({ steps: [{ text }] });
const chats = (s: Scenario) => s.model.requests.filter((r) => r.method === 'POST');
/** Every content part of every message of a chat request. */
const parts = (body: any): any[] => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
const hasImage = (body: any) => parts(body).some((p) => p.type === 'image_url');
const lastUserText = (body: any): string => {
  const content = body.messages.filter((m: any) => m.role === 'user').at(-1).content;
  return typeof content === 'string' ? content : content.map((p: any) => p.text ?? '').join('');
};

/** A provider whose /models/info lists the non-vision TEST_MODEL and two vision models; the listing has arrived. */
async function visionScenario(opts: ScenarioOptions & { vision?: object; seeing?: string[] } = {}): Promise<Scenario> {
  const s = await startScenario({ ...opts, handshake: false });
  if (opts.vision) {
    mkdirSync(join(s.core.workspace, '.catalyst-code'), { recursive: true });
    writeFileSync(join(s.core.workspace, '.catalyst-code', 'vision.json'), JSON.stringify(opts.vision));
  }
  const caps = (vision: boolean) => ({ context_window: 100_000, supports_vision: vision, reasoning: { supported: false } });
  const seeing = opts.seeing ?? [VISION_DEAR, VISION_CHEAP];
  s.model.setModelsInfo(
    Object.fromEntries([[TEST_MODEL, { capabilities: caps(false) }], ...seeing.map((id) => [id, { capabilities: caps(true) }])]),
  );
  const { ready } = await s.core.handshake();
  if (ready.models.length === 0) await s.core.waitForType('models', { from: s.core.events.indexOf(ready) });
  return s;
}

async function imageTurn(s: Scenario, model = TEST_MODEL): Promise<any[]> {
  const from = s.core.events.length;
  s.core.send({ type: 'send', prompt: 'what does this screenshot show?', model, images: [IMAGE] });
  await s.core.waitForType('done', { from });
  return s.core.answerSince(from);
}

const infos = (events: any[]) => events.filter((e) => e.type === 'info').map((e) => e.message);

test('switch (the default): an image turn of a non-vision model goes, whole, to the cheapest same-provider vision model', async () => {
  const s = await visionScenario({ script: [say('a login form')] });
  try {
    const events = await imageTurn(s);
    assert.ok(infos(events).includes(HANDOFF_INFO), `the hand-off info, verbatim: ${infos(events)}`);
    const [request] = chats(s);
    assert.equal(chats(s).length, 1);
    assert.equal(request.body.model, VISION_CHEAP, 'cost rank 10 (mini) before 50 (-pro)');
    assert.ok(hasImage(request.body), "the vision model's request carries the image");
    assert.equal(parts(request.body).find((p) => p.type === 'image_url').image_url.url, IMAGE);
    assert.ok(!events.some((e) => e.type === 'error'));
  } finally {
    await s.close();
  }
});

test('a vision model keeps its image turn: no hand-off, no info', async () => {
  const s = await visionScenario({ script: [say('seen')] });
  try {
    const events = await imageTurn(s, VISION_DEAR);
    assert.deepEqual(
      infos(events).filter((m) => m.includes('vision')),
      [],
    );
    assert.equal(chats(s)[0].body.model, VISION_DEAR);
    assert.ok(hasImage(chats(s)[0].body));
  } finally {
    await s.close();
  }
});

test('describe (ours): the vision model describes the image once; the chosen model keeps the turn, with the text and no image', async () => {
  const s = await visionScenario({
    vision: { mode: 'describe' },
    script: [say('A login form with an "Invalid password" error.'), say('fix it so')],
  });
  try {
    const events = await imageTurn(s);
    const [describe, main] = chats(s);
    assert.equal(chats(s).length, 2);
    assert.equal(describe.body.model, VISION_CHEAP);
    assert.ok(hasImage(describe.body), 'the describe request carries the image');
    assert.match(lastUserText(describe.body), /^Describe the attached image/);
    assert.equal(describe.body.tools, undefined, 'no tools for the description');
    assert.equal(main.body.model, TEST_MODEL, 'the chosen model keeps the turn');
    assert.ok(!hasImage(main.body), "the main model's request carries no image part");
    assert.match(
      lastUserText(main.body),
      /^what does this screenshot show\?\n\n\[The user attached 1 image\.[^\n]*vision-mini described it:\]\nA login form/,
    );
    assert.ok(
      infos(events).includes(`vision describe: ${TEST_MODEL} ← ${VISION_CHEAP} (described 1 image; the image is not sent)`),
      `${infos(events)}`,
    );
    assert.ok(!infos(events).some((m) => m.startsWith('vision handoff')), 'no switch in describe mode');
  } finally {
    await s.close();
  }
});

test('describe: a failed description is a clear error, and the image is not dropped silently: the main model is not asked', async () => {
  const s = await visionScenario({
    vision: { mode: 'describe' },
    script: [{ status: 400, body: { error: { message: 'image too large' } } }],
  });
  try {
    const events = await imageTurn(s);
    const error = events.find((e) => e.type === 'error');
    assert.equal(error.code, 'vision_describe_failed');
    assert.match(
      error.message,
      /vision describe failed: 'vision-mini' could not describe the image \(.*image too large.*\); nothing was sent to 'test-model'/,
    );
    assert.deepEqual(
      chats(s).map((r) => r.body.model),
      [VISION_CHEAP],
    );
    assert.equal(events.at(-1).type, 'done');
  } finally {
    await s.close();
  }
});

test("vision off: upstream's info, then a clear error; no model request at all, and the conversation keeps nothing of it", async () => {
  const s = await visionScenario({ vision: { enabled: false }, script: [say('later')] });
  try {
    const events = await imageTurn(s);
    assert.ok(
      infos(events).includes(
        `image attached but vision handoff is disabled and '${TEST_MODEL}' lacks vision; enable it in Settings / /vision (recommended), or pick a vision model`,
      ),
    );
    const error = events.find((e) => e.type === 'error');
    assert.equal(error.code, 'image_refused');
    assert.match(error.message, /'test-model' cannot see images and vision hand-off is off: the image was not sent/);
    assert.equal(chats(s).length, 0);
    await s.turn('hello');
    assert.deepEqual(
      chats(s)[0]
        .body.messages.filter((m: any) => m.role === 'user')
        .map((m: any) => m.content),
      ['hello'],
      'the refused prompt is not in the next request',
    );
  } finally {
    await s.close();
  }
});

test("no vision model to hand to: upstream's info, then the same clear error; nothing is sent", async () => {
  const s = await visionScenario({ seeing: [] });
  try {
    const events = await imageTurn(s);
    assert.ok(
      infos(events).includes(
        `image attached but '${TEST_MODEL}' lacks vision and no same-provider vision model is available to hand off to; use /vision to set one (or select a vision model with /model)`,
      ),
      `${infos(events)}`,
    );
    assert.equal(events.find((e) => e.type === 'error').code, 'image_refused');
    assert.equal(chats(s).length, 0);
  } finally {
    await s.close();
  }
});

test("set_vision_config replaces the config, persists it pretty-printed and answers in upstream's payload; get reads it back", async () => {
  const s = await visionScenario();
  try {
    let from = s.core.events.length;
    s.core.send({ type: 'get_vision_config' });
    const initial = await s.core.waitForType('vision_config', { from });
    assert.deepEqual([initial.enabled, initial.vision_models, initial.vision_model, initial.mode], [true, [], null, 'switch']);
    assert.deepEqual(initial.models, [
      { id: TEST_MODEL, vision: false, provider: 'scripted', cost_rank: 60 },
      { id: VISION_DEAR, vision: true, provider: 'scripted', cost_rank: 50 },
      { id: VISION_CHEAP, vision: true, provider: 'scripted', cost_rank: 10 },
    ]);

    from = s.core.events.length;
    s.core.send({ type: 'set_vision_config', enabled: true, vision_models: [TEST_MODEL], vision_model: VISION_DEAR, mode: 'describe' });
    const set = await s.core.waitForType('vision_config', { from });
    assert.deepEqual([set.enabled, set.vision_models, set.vision_model, set.mode], [true, [TEST_MODEL], VISION_DEAR, 'describe']);
    assert.equal(set.models[0].vision, true, 'a model listed in vision_models counts as seeing');
    const file = readFileSync(join(s.core.workspace, '.catalyst-code', 'vision.json'), 'utf8');
    assert.equal(
      file,
      `${JSON.stringify({ enabled: true, vision_models: [TEST_MODEL], vision_model: VISION_DEAR, mode: 'describe' }, null, 2)}\n`,
    );

    from = s.core.events.length;
    s.core.send({ type: 'set_vision_config', vision_model: '' });
    const replaced = await s.core.waitForType('vision_config', { from });
    assert.deepEqual(
      [replaced.enabled, replaced.vision_models, replaced.vision_model, replaced.mode],
      [true, [], null, 'describe'],
      'omitted keys reset as upstream; an empty vision_model is null; our mode is kept',
    );

    from = s.core.events.length;
    s.core.send({ type: 'set_vision_config', vision_models: 'all' });
    const bad = await s.core.waitForType('error', { from });
    assert.deepEqual([bad.code, bad.message], ['invalid_command', 'set_vision_config: vision_models must be a list of model ids']);
    s.core.send({ type: 'get_vision_config' });
    const kept = await s.core.waitForType('vision_config', { from });
    assert.equal(kept.mode, 'describe', 'a bad command changes nothing');

    writeFileSync(join(s.core.workspace, '.catalyst-code', 'vision.json'), '{ not json');
    from = s.core.events.length;
    s.core.send({ type: 'get_vision_config' });
    const malformed = await s.core.waitForType('vision_config', { from });
    assert.deepEqual([malformed.enabled, malformed.vision_models, malformed.vision_model, malformed.mode], [true, [], null, 'switch']);
  } finally {
    await s.close();
  }
});

test('a pinned vision_model wins over the cheapest one', async () => {
  const s = await visionScenario({ vision: { vision_model: VISION_DEAR }, script: [say('seen')] });
  try {
    const events = await imageTurn(s);
    assert.equal(chats(s)[0].body.model, VISION_DEAR);
    assert.ok(infos(events).includes(`vision handoff: ${TEST_MODEL} → ${VISION_DEAR} (cheapest same-provider)`), `${infos(events)}`);
  } finally {
    await s.close();
  }
});

test("pre_turn: a hook's modify.model picks the turn's model with its reason; an unknown id is ignored with upstream's info", async () => {
  const home = tempDir('core-home-');
  const seen = join(tempDir('pre-turn-'), 'args.json');
  writePlugin(globalPluginsDir(home), 'picker', {
    manifest: { name: 'picker', version: '1', hooks: { pre_turn: { script: 'pick.js', pass_args: true } } },
    files: {
      'pick.js': script(
        `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(input.args));` +
          "answer(input.args.image_count === 2 ? { allow: true, modify: { model: 'no-such-model' } } : { allow: true, reason: 'the sharp one', modify: { model: 'vision-pro' } });",
      ),
    },
  });
  const s = await visionScenario({ home, script: [say('picked'), say('fallback')] });
  try {
    const events = await imageTurn(s);
    assert.ok(infos(events).includes(`vision handoff: ${TEST_MODEL} → ${VISION_DEAR} (the sharp one)`), `${infos(events)}`);
    assert.equal(chats(s)[0].body.model, VISION_DEAR);
    const args = JSON.parse(readFileSync(seen, 'utf8'));
    assert.deepEqual(Object.keys(args).sort(), [
      'enabled',
      'has_images',
      'image_count',
      'model',
      'models',
      'provider',
      'recommended_vision_model',
      'vision_model',
    ]);
    assert.deepEqual(
      [args.model, args.has_images, args.image_count, args.provider, args.recommended_vision_model, args.vision_model, args.enabled],
      [TEST_MODEL, true, 1, 'scripted', VISION_CHEAP, null, true],
    );

    const from = s.core.events.length;
    s.core.send({ type: 'send', prompt: 'and these?', model: TEST_MODEL, images: [IMAGE, IMAGE] });
    await s.core.waitForType('done', { from });
    const second = s.core.events.slice(from);
    assert.ok(infos(second).includes("vision handoff ignored: 'no-such-model' is not a discovered model"), `${infos(second)}`);
    assert.ok(infos(second).includes(HANDOFF_INFO), 'then the default hand-off');
    assert.equal(chats(s)[1].body.model, VISION_CHEAP);
  } finally {
    await s.close();
  }
});
