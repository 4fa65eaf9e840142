import type { ProviderPreset } from '../../protocol';

/** An `oauth_prompt` as the UI shows it; built from an untrusted event. */
export interface OauthPromptView {
  /** Always http(s): a plugin's URL must not become a `command:` or `file:` link. */
  url: string;
  /** A user code to enter at the URL (device flows). */
  code?: string;
  message: string;
  /** The flow finishes only when the user pastes a code (oauth_code); a missing needs_code counts as true (seed protocol). */
  needsCode: boolean;
}

export type OauthPromptRead = { prompt: OauthPromptView } | { refused: string };

export function readOauthPrompt(e: { [field: string]: unknown }): OauthPromptRead {
  const url = typeof e.url === 'string' ? e.url.trim() : '';
  if (!isHttpUrl(url)) return { refused: `the OAuth login sent a URL that is not http(s): ${JSON.stringify(url.slice(0, 80))}` };
  const code = typeof e.code === 'string' && e.code.trim() ? e.code.trim() : undefined;
  const message = typeof e.message === 'string' && e.message.trim() ? e.message.trim() : 'Open the URL to log in.';
  return { prompt: { url, ...(code ? { code } : {}), message, needsCode: e.needs_code !== false } };
}

/** How the OAuth login the UI started ended, from the core's info/error texts (upstream's, which carry no codes). */
export type OauthOutcome = { ok: true; message: string } | { ok: false; message: string };

const FAILURE_PREFIXES = ['OAuth login failed:', 'OAuth code exchange failed:', 'No pending OAuth login.', 'no plugin OAuth provider for '];

export function oauthOutcome(e: { type: string; [field: string]: unknown }): OauthOutcome | undefined {
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.type === 'info' && message.startsWith('OAuth ready: ')) return { ok: true, message };
  if (e.type !== 'error') return undefined;
  if (FAILURE_PREFIXES.some((p) => message.startsWith(p)) || message.includes(' has no plugin OAuth login')) return { ok: false, message };
  return undefined;
}

/** Whether the code-paste step can be retried after this failure: a wrong code keeps the login pending. */
export const pendingRestored = (outcome: OauthOutcome): boolean => !outcome.ok && outcome.message.includes('(pending login restored');

export type LoginMethod = 'oauth' | 'key';

/** A plugin OAuth provider has no key variable (envVar null): OAuth only; a built-in preset a plugin also serves: both. */
export function loginMethods(preset: ProviderPreset): LoginMethod[] {
  if (!preset.supportsOauth) return ['key'];
  return preset.envVar ? ['oauth', 'key'] : ['oauth'];
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
