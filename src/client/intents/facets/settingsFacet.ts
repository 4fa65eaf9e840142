import { str } from '../../state/eventFields';
import type { IntentContext } from '../intentContext';
import type { LiveConfig, LiveConfigKey } from '../liveSettings';
import { setVisionConfigCommand, visionSettingsOf, type VisionSettings } from '../visionSettings';

export type SettingsIntents = ReturnType<typeof settingsFacet>;

/** The core's settings changed without a restart: the live ones (`set_config`) and the vision hand-off. */
export function settingsFacet(ctx: IntentContext) {
  /** The settings changed with set_config since launch, sent again to a restarted core. */
  const liveConfig = new Map<LiveConfigKey, number | boolean>();
  let wasReady = false;
  ctx.onDidChange((s) => {
    const ready = s.core.status === 'ready';
    if (ready && !wasReady) for (const [key, value] of liveConfig) ctx.send({ type: 'set_config', key, value });
    wasReady = ready;
  });

  return {
    /**
     * A setting the core changes while running (`set_config`: bash timeout, auto-compact), instead of a restart. It is
     * kept and sent again to each core this session starts later (a crash restart launches with the old flags), and
     * sent once the core is ready if it is not yet. Returns whether it went to a running core now.
     */
    setRuntimeConfig(config: LiveConfig): boolean {
      liveConfig.set(config.key, config.value);
      if (ctx.state.core.status !== 'ready') return false;
      return ctx.send({ type: 'set_config', key: config.key, value: config.value });
    },

    /** `get_vision_config`: the vision hand-off settings and every model's sight; undefined when the core cannot answer. */
    fetchVisionConfig(): Promise<VisionSettings | undefined> {
      if (!ctx.requireReady()) return Promise.resolve(undefined);
      return ctx.nextAnswer({ type: 'get_vision_config' }, ['vision_config']).then((e) => (e ? visionSettingsOf(e) : undefined));
    },

    /** `set_vision_config` (replaces the whole config); resolves with the saved settings, or the core's error text. */
    saveVisionConfig(settings: Omit<VisionSettings, 'models'>): Promise<VisionSettings | string | undefined> {
      if (!ctx.requireReady()) return Promise.resolve(undefined);
      return ctx
        .nextAnswer(setVisionConfigCommand(settings), ['vision_config', 'error'])
        .then((e) =>
          e?.type === 'error' ? (str(e.message) ?? 'the vision settings were not saved') : e ? visionSettingsOf(e) : undefined,
        );
    },
  };
}
