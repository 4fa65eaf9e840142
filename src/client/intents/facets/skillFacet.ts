import type { CommandOf } from '../../../protocol';
import { UI_CAPABILITIES, type SkillView } from '../../../shared/sessionState';
import type { WireEvent } from '../../state/eventFields';
import type { IntentContext } from '../intentContext';
import { isMarketplaceCommand, shownSkillPrompt, type SkillMarketplaceCommand } from '../skillRequests';

export type SkillIntents = ReturnType<typeof skillFacet>;

/** Skills: listing them, applying one as a turn, and the marketplace. */
export function skillFacet(ctx: IntentContext) {
  const requireSkills = () => ctx.requireFeature(UI_CAPABILITIES.skills, 'does not support skills');

  return {
    /** `/skills`: the core's skills, shown as a notice in the chat when they arrive. */
    listSkills(): boolean {
      if (!ctx.requireReady() || !requireSkills()) return false;
      ctx.requestReport('skills');
      return ctx.send({ type: 'list_skills' });
    },

    /** The core's skills for a picker, once its next `skills` answer is in the state; undefined if it cannot say. */
    fetchSkills(): Promise<SkillView[] | undefined> {
      if (!ctx.requireReady() || !requireSkills()) return Promise.resolve(undefined);
      return ctx.nextAnswer({ type: 'list_skills' }, ['skills']).then((e) => (e ? (ctx.state.skills ?? []) : undefined));
    },

    /**
     * `apply_skill` on the selected model, queued like a prompt and shown as `/skill:<name> [task]`; the core builds the
     * prompt from the skill's file.
     */
    applySkill(name: string, task = ''): boolean {
      const skill = typeof name === 'string' ? name.trim() : '';
      const text = typeof task === 'string' ? task.trim() : '';
      if (!skill) return ctx.refuse('Name the skill to apply: /skill:<name> [task].');
      const shown = shownSkillPrompt(skill, text);
      if (!ctx.requireReady() || !requireSkills() || !ctx.withinPromptLimit(shown)) return false;
      const model = ctx.requireModel(ctx.state.model);
      if (!model) return false;
      if (ctx.state.run.status !== 'idle' && ctx.state.run.queued !== undefined) {
        return ctx.refuse('A prompt is already queued. Wait for this turn, steer it, or clear the queue.');
      }
      ctx.dispatch({ type: 'client:prompt', text: shown, images: 0 });
      const cmd: CommandOf<'apply_skill'> = { type: 'apply_skill', name: skill, model, reasoning_effort: ctx.state.reasoningEffort };
      if (text) cmd.task = text;
      return ctx.send(cmd);
    },

    /** One marketplace command and the core's answer to it (one of `answers`); undefined when the core cannot answer (not ready, stopped). */
    skillMarketplace(cmd: SkillMarketplaceCommand, answers: readonly string[]): Promise<WireEvent | undefined> {
      if (!isMarketplaceCommand(cmd)) return Promise.resolve(undefined);
      if (!ctx.requireReady() || !requireSkills()) return Promise.resolve(undefined);
      return ctx.nextAnswer(cmd, answers);
    },
  };
}
