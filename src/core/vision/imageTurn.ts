/**
 * A turn whose prompt carries images, when its model may not see them (research A §10, "the flow on a turn with
 * images"): the pre_turn hooks may pick another model; else the whole turn is handed to the recommended vision model
 * (upstream's `switch`), or — our opt-in `describe` mode — that model describes the images once and the chosen model
 * keeps the turn with the description instead of the images. The `info` texts are upstream's, so upstream's UIs read
 * them too. Unlike upstream, an image no model of the turn can see is refused with an error rather than sent anyway.
 */
import type { ModelInfo } from '../../protocol';
import { imagePart } from '../agent/images';
import { streamChat } from '../providers/stream';
import { ProviderError, type ResolvedProvider } from '../providers/types';
import { scrubText } from '../runtime/redact';
import type { RunEvent } from '../runtime/eventSink';
import type { RunScope } from '../runtime/runScope';
import type { ProviderRegistry } from '../models/providerRegistry';
import { readVisionConfig, type VisionConfig } from './visionConfig';
import { recommendVisionModel, visionModelRows, type VisionModelRow } from './visionModels';

export interface TurnRoute {
  model: string;
  providerName: string;
  provider: ResolvedProvider;
  modelInfo?: ModelInfo;
}

/** What the turn runs with: its model, and the prompt and images the model's request carries. */
export interface ImageTurn extends TurnRoute {
  prompt: string;
  images?: string[];
}

/** What routing a turn's images needs of the session: its workspace (vision.json, the images), providers, time-out and secrets. */
export interface ImageTurnHost {
  workspace: string;
  providers: Pick<ProviderRegistry, 'models' | 'active' | 'resolve' | 'modelInfo'>;
  config: { idleTimeoutSecs: number };
  secrets(): string[];
  emitInRun(scope: RunScope, event: RunEvent): void;
}

/** The plugins' pre_turn hooks over upstream's args, the port vision declares: the model they picked (`modify.model`) and why. */
export type PreTurnHooks = (args: { model: string; [field: string]: unknown }) => Promise<{ model?: string; reason: string }>;

/** The fixed request of describe mode; the answer is all the chosen model learns of the images. */
export const DESCRIBE_PROMPT = [
  'Describe the attached image(s) for a coding assistant that cannot see them.',
  'Transcribe all visible text exactly (code, error messages, labels, numbers). Describe layout, UI elements, diagrams,',
  'charts and anything that looks wrong. Be complete and factual; do not guess beyond what is visible. No preamble.',
].join(' ');

/** The refusal when no model of the turn can take the images (ours; upstream sends them on regardless). */
export const IMAGE_REFUSED_CODE = 'image_refused';

/**
 * Decides who sees the turn's images; undefined when the turn must stop (the error has been emitted, nothing was sent
 * and the conversation is unchanged, so the user can send the prompt again).
 */
export async function routeImageTurn(
  host: ImageTurnHost,
  scope: RunScope,
  turn: ImageTurn,
  preTurn: PreTurnHooks,
): Promise<ImageTurn | undefined> {
  if (!turn.images?.length) return turn;
  const emit = (message: string) => host.emitInRun(scope, { type: 'info', message });
  const config = readVisionConfig(host.workspace);
  const rows = visionModelRows(host.providers.models(), config, host.providers.active);
  const current = rows.find((r) => r.id === turn.model && r.provider === turn.providerName) ?? rows.find((r) => r.id === turn.model);
  // A model no list describes (no discovery yet) is not second-guessed: its request carries the images as before.
  const lacksVision = current !== undefined && !current.vision;
  const recommended = recommendVisionModel(rows, config, turn.model, turn.providerName);
  if (!config.enabled && lacksVision) {
    emit(
      `image attached but vision handoff is disabled and '${turn.model}' lacks vision; enable it in Settings / /vision (recommended), or pick a vision model`,
    );
    return refuse(host, scope, `'${turn.model}' cannot see images and vision hand-off is off: the image was not sent`);
  }
  const hooked = await preTurn(preTurnArgs(turn, rows, config, recommended));
  if (hooked.model !== undefined && hooked.model !== turn.model) {
    const target = rows.find((r) => r.id === hooked.model);
    if (target) {
      emit(`vision handoff: ${turn.model} → ${target.id} (${hooked.reason || 'vision handoff'})`);
      return switchTo(host, scope, turn, target);
    }
    emit(`vision handoff ignored: '${hooked.model}' is not a discovered model`);
  }
  if (!lacksVision) return turn;
  if (!recommended) {
    emit(
      `image attached but '${turn.model}' lacks vision and no same-provider vision model is available to hand off to; use /vision to set one (or select a vision model with /model)`,
    );
    return refuse(host, scope, `'${turn.model}' cannot see images and no vision model is configured: the image was not sent`);
  }
  if (config.mode === 'describe') return describeImages(host, scope, turn, recommended);
  emit(`vision handoff: ${turn.model} → ${recommended.id} (cheapest same-provider)`);
  return switchTo(host, scope, turn, recommended);
}

/** upstream's pre_turn `args` (with pass_args). */
function preTurnArgs(
  turn: ImageTurn,
  rows: VisionModelRow[],
  config: VisionConfig,
  recommended: VisionModelRow | undefined,
): { model: string; [field: string]: unknown } {
  return {
    model: turn.model,
    has_images: true,
    image_count: turn.images?.length ?? 0,
    models: rows,
    vision_model: config.vision_model,
    enabled: config.enabled,
    provider: turn.providerName,
    recommended_vision_model: recommended?.id ?? null,
  };
}

function routeTo(host: ImageTurnHost, target: VisionModelRow): TurnRoute | undefined {
  const provider = host.providers.resolve(target.provider);
  if (!provider) return undefined;
  return { model: target.id, providerName: target.provider, provider, modelInfo: host.providers.modelInfo(target.id, target.provider) };
}

/** The whole turn goes to `target`, as upstream does (every request of it). */
function switchTo(host: ImageTurnHost, scope: RunScope, turn: ImageTurn, target: VisionModelRow): ImageTurn | undefined {
  const route = routeTo(host, target);
  if (!route) return refuse(host, scope, `no provider serves the vision model '${target.id}' (log in to '${target.provider}')`);
  return { ...turn, ...route };
}

function refuse(host: ImageTurnHost, scope: RunScope, why: string): undefined {
  host.emitInRun(scope, {
    type: 'error',
    code: IMAGE_REFUSED_CODE,
    message: `${why}. Turn vision hand-off on or set a vision model with /vision, or pick a model that can see images.`,
  });
  return undefined;
}

/** Describe mode: one request to the vision model; the turn keeps its model and carries the description, not the images. */
async function describeImages(
  host: ImageTurnHost,
  scope: RunScope,
  turn: ImageTurn,
  describer: VisionModelRow,
): Promise<ImageTurn | undefined> {
  const route = routeTo(host, describer);
  const images = turn.images ?? [];
  let description: string;
  try {
    if (!route) throw new Error(`no provider serves it; log in to '${describer.provider}'`);
    const result = await streamChat(
      {
        provider: route.provider,
        model: describer.id,
        messages: [
          { role: 'user', content: [{ type: 'text', text: DESCRIBE_PROMPT }, ...images.map((ref) => imagePart(ref, host.workspace))] },
        ],
        tools: [],
        maxTokens: route.modelInfo?.max_tokens,
        signal: scope.signal,
        idleTimeoutMs: host.config.idleTimeoutSecs * 1000,
      },
      () => undefined,
    );
    description = result.text.trim();
    if (!description) throw new Error('the answer was empty');
  } catch (err) {
    if (scope.cancelled || (err instanceof ProviderError && err.kind === 'cancelled')) return undefined;
    const message = scrubText((err as Error).message, host.secrets());
    host.emitInRun(scope, {
      type: 'error',
      code: 'vision_describe_failed',
      message: `vision describe failed: '${describer.id}' could not describe the image (${message}); nothing was sent to '${turn.model}'. Send again, or set the vision mode to switch with /vision.`,
    });
    return undefined;
  }
  const count = images.length === 1 ? '1 image' : `${images.length} images`;
  host.emitInRun(scope, {
    type: 'info',
    message: `vision describe: ${turn.model} ← ${describer.id} (described ${count}; the image is not sent)`,
  });
  return {
    ...turn,
    prompt: `${turn.prompt}\n\n[The user attached ${count}. You cannot see ${images.length === 1 ? 'it' : 'them'}; ${describer.id} described ${images.length === 1 ? 'it' : 'them'}:]\n${description}`,
    images: undefined,
  };
}
