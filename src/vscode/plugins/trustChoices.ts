// What the trust prompt decides, apart from the dialogs that ask (./pluginTrustPrompt.ts). Decisions are keyed by the
// plugin's path: two project plugins may share a name (docs/plans/issue-17-plugins.md §5).
import type { PluginTrustEntryView } from '../../shared/pluginState';

export type TrustDecisions = Record<string, 'trust' | 'deny'>;

/** Every entry trusted, or every entry denied. */
export function allDecided(entries: readonly PluginTrustEntryView[], decision: 'trust' | 'deny'): TrustDecisions {
  return Object.fromEntries(entries.map((e) => [e.path, decision]));
}

/** The picked entries trusted, every other one denied (the user saw them all and left them out). */
export function pickedDecisions(entries: readonly PluginTrustEntryView[], picked: readonly string[]): TrustDecisions {
  return Object.fromEntries(entries.map((e) => [e.path, picked.includes(e.path) ? 'trust' : 'deny']));
}

/** Only what differs from the recorded decisions: Manage Plugin Trust… sends the changes. */
export function changedDecisions(entries: readonly PluginTrustEntryView[], decisions: TrustDecisions): TrustDecisions {
  return Object.fromEntries(Object.entries(decisions).filter(([path, d]) => entries.find((e) => e.path === path)?.decision !== d));
}

/** The same undecided set in the same folder is asked about once per window. */
export function promptKey(folder: string, entries: readonly PluginTrustEntryView[]): string {
  return `${folder}\n${entries
    .map((e) => e.path)
    .sort()
    .join('\n')}`;
}

/** The modal's detail: each plugin's name, version, description and folder. */
export function trustDetail(entries: readonly PluginTrustEntryView[]): string {
  const lines = entries.map((e) => `${e.name} ${e.version}${e.description ? ` — ${e.description}` : ''}\n${e.path}`);
  return `${lines.join('\n\n')}\n\nA trusted plugin's hooks, tools and commands run on this machine with your rights. Denied plugins stay unloaded and are not asked about again; Manage Plugin Trust… changes either.`;
}
