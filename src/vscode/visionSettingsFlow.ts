import * as vscode from 'vscode';
import type { ChatSession } from '../client/intents/chatSession';
import type { VisionModelView, VisionSettings } from '../client/intents/visionSettings';

/** What the flow asks of the chat session (get/set_vision_config). */
export type VisionSettingsSession = Pick<ChatSession, 'start' | 'fetchVisionConfig' | 'saveVisionConfig'>;

type Step = 'enabled' | 'mode' | 'model' | 'list';
type StepPick = vscode.QuickPickItem & { step: Step };
type ModelPick = vscode.QuickPickItem & { id: string | null };

const MODE_TEXT: Record<VisionSettings['mode'], string> = {
  switch: 'Switch: the vision model takes the whole turn (as upstream)',
  describe: 'Describe: the vision model describes the images, your model keeps the turn',
};

/**
 * "Vision Settings…" (and `/vision`): the core's vision.json as a QuickPick — hand-off on/off, the mode, the preferred
 * vision model (by cost rank) and the models the user says can see. Each change is saved at once
 * (`set_vision_config`) and the settings show again from the core's answer.
 */
export async function showVisionSettings(session: VisionSettingsSession): Promise<void> {
  if (!(await session.start())) return;
  let settings = await session.fetchVisionConfig();
  for (;;) {
    if (!settings) return;
    const step = await pickStep(settings);
    if (!step) return;
    const changed = await change(settings, step);
    if (!changed) continue;
    const saved = await session.saveVisionConfig(changed);
    if (typeof saved === 'string') void vscode.window.showErrorMessage(`Catalyst Code: ${saved}`);
    settings = typeof saved === 'string' ? settings : saved;
  }
}

function pickStep(s: VisionSettings): Promise<Step | undefined> {
  const preferred = s.visionModel ?? 'the cheapest same-provider vision model';
  const items: StepPick[] = [
    {
      step: 'enabled',
      label: `$(eye) Vision hand-off: ${s.enabled ? 'On' : 'Off'}`,
      detail: s.enabled ? 'Images for a model that cannot see go to a vision model' : 'Images for a model that cannot see are refused',
    },
    { step: 'mode', label: `$(symbol-enum) Mode: ${s.mode === 'switch' ? 'Switch' : 'Describe'}`, detail: MODE_TEXT[s.mode] },
    { step: 'model', label: `$(star) Preferred vision model: ${preferred}`, detail: 'Pick from the models that can see' },
    {
      step: 'list',
      label: `$(list-unordered) Models that can see: ${s.visionModels.length ? s.visionModels.join(', ') : 'as their endpoint says'}`,
      detail: 'Add or remove models the endpoint does not flag as seeing',
    },
  ];
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<StepPick>();
    pick.title = 'Catalyst Code: Vision Settings';
    pick.placeholder = 'Pick a setting to change it (saved at once)';
    pick.items = items;
    let chosen: Step | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.step;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** The settings after one change, or undefined when the user backed out. */
async function change(s: VisionSettings, step: Step): Promise<VisionSettings | undefined> {
  switch (step) {
    case 'enabled':
      return { ...s, enabled: !s.enabled };
    case 'mode': {
      const modes = (['switch', 'describe'] as const).map((mode) => ({ label: MODE_TEXT[mode], mode, picked: mode === s.mode }));
      const picked = await vscode.window.showQuickPick(modes, { title: 'Vision mode', placeHolder: `Now: ${s.mode}` });
      return picked ? { ...s, mode: picked.mode } : undefined;
    }
    case 'model': {
      const picked = await vscode.window.showQuickPick(preferredModelPicks(s), {
        title: 'Preferred vision model',
        placeHolder: 'Cost rank: lower is cheaper (a heuristic on the id)',
        matchOnDescription: true,
      });
      return picked ? { ...s, visionModel: picked.id } : undefined;
    }
    case 'list': {
      const picked = await vscode.window.showQuickPick(listPicks(s), {
        title: 'Models that can see',
        placeHolder: 'Check the models that take images (those their endpoint flags are listed as such already)',
        canPickMany: true,
        matchOnDescription: true,
      });
      return picked ? { ...s, visionModels: picked.map((p) => p.id).filter((id): id is string => id !== null) } : undefined;
    }
  }
}

function describeModel(m: VisionModelView): string {
  return [m.provider, m.costRank !== undefined ? `cost rank ${m.costRank}` : undefined].filter(Boolean).join(' · ');
}

function preferredModelPicks(s: VisionSettings): ModelPick[] {
  const seeing = s.models.filter((m) => m.vision).sort((a, b) => (a.costRank ?? 99) - (b.costRank ?? 99) || a.id.localeCompare(b.id));
  return [
    { id: null, label: 'Automatic', description: 'the cheapest vision model of the turn’s provider', picked: s.visionModel === null },
    ...seeing.map((m) => ({ id: m.id, label: m.id, description: describeModel(m), picked: m.id === s.visionModel })),
  ];
}

function listPicks(s: VisionSettings): ModelPick[] {
  return s.models.map((m) => ({
    id: m.id,
    label: m.id,
    description: [describeModel(m), m.vision && !s.visionModels.includes(m.id) ? 'sees (endpoint)' : undefined].filter(Boolean).join(' · '),
    picked: s.visionModels.includes(m.id),
  }));
}
