/**
 * Upstream's plugin OAuth login (`oauth_login`, research A §8.3–8.4): the web (loopback), manual and auto flows, the
 * pending login `oauth_code` completes, and the generation counter that lets a newer login supersede an older one.
 */
import { spawn } from 'node:child_process';
import type { SessionEvent } from '../runtime/eventSink';
import type { OauthConfig } from './oauthManifest';
import { OauthLoopback, OAUTH_REDIRECT_WAIT_MS } from './oauthLoopback';
import { runOauthAction, scriptRefusal, type OauthScriptHost } from './oauthScripts';

export const SUPERSEDED_TEXT = 'Ignoring a superseded OAuth attempt (a newer /login is in progress).';
export const AWAITING_CODE_TEXT =
  'OAuth login awaiting a code. Open the URL above on any device, approve, then paste the code via /oauth-code <code>.';
export const NO_PENDING_TEXT =
  'No pending OAuth login. Run /login first — the no-browser flow prints a URL; paste its code here with /oauth-code <code>.';

const AUTO_FLOWS = new Set(['poll', 'auto', 'device_code', 'device-code']);
const DONE_FLOWS = new Set(['already_authenticated', 'existing', 'authenticated']);

export interface OauthLoginHost extends OauthScriptHost {
  emit(event: SessionEvent): void;
  /** Adds/activates/persists the provider and emits the success sequence (oauthCommands.ts). */
  finalize(cfg: OauthConfig): Promise<void>;
  /** The plugin provider by id, as it is now (a plugin may have been removed meanwhile). */
  provider(providerId: string): OauthConfig | undefined;
  log(message: string): void;
  redirectWaitMs?: number;
}

interface PendingLogin {
  providerId: string;
  state?: string;
  pending?: unknown;
}

class Superseded extends Error {}

/** Upstream's `likely_headless`: CATALYST_CODE_NO_BROWSER / NO_BROWSER decide; else SSH, else no display on Linux. */
export function likelyHeadless(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  const flag = env.CATALYST_CODE_NO_BROWSER ?? env.NO_BROWSER;
  if (flag !== undefined && flag.trim() !== '') return !['0', 'false', 'no', 'off'].includes(flag.trim().toLowerCase());
  if (env.SSH_CONNECTION || env.SSH_TTY) return true;
  if (platform !== 'darwin' && platform !== 'win32') return !env.DISPLAY && !env.WAYLAND_DISPLAY;
  return false;
}

export class OauthLogins {
  private generation = 0;
  private pending: PendingLogin | undefined;
  private loopback: OauthLoopback | undefined;

  constructor(private readonly host: OauthLoginHost) {}

  /** Runs a login to its end (the caller does not await it: the core keeps answering meanwhile). */
  async login(cfg: OauthConfig): Promise<void> {
    const generation = ++this.generation;
    this.loopback?.cancel(new Superseded());
    this.pending = undefined;
    this.host.emit({ type: 'info', message: `starting OAuth login for ${cfg.label}…` });
    try {
      await this.run(cfg, generation);
    } catch (err) {
      if (err instanceof Superseded || generation !== this.generation) {
        this.host.emit({ type: 'info', message: SUPERSEDED_TEXT });
        return;
      }
      this.host.emit({ type: 'error', code: 'oauth_failed', message: `OAuth login failed: ${(err as Error).message}` });
    }
  }

  /** `oauth_code`: completes the pending login; a failure restores it. */
  async submitCode(code: string): Promise<void> {
    const pending = this.pending;
    if (!pending) {
      this.host.emit({ type: 'error', code: 'no_pending_oauth', message: NO_PENDING_TEXT });
      return;
    }
    const cfg = this.host.provider(pending.providerId);
    this.pending = undefined;
    if (!cfg) {
      this.host.emit({
        type: 'error',
        code: 'no_pending_oauth',
        message: `no plugin OAuth provider for '${pending.providerId}' — pending login discarded`,
      });
      return;
    }
    try {
      await this.complete(cfg, { code, ...(pending.pending !== undefined ? { pending: pending.pending } : {}) });
    } catch (err) {
      this.pending ??= pending;
      this.host.emit({
        type: 'error',
        code: 'oauth_failed',
        message: `OAuth code exchange failed: ${(err as Error).message} (pending login restored — try /oauth-code again with the correct code)`,
      });
      return;
    }
    await this.host.finalize(cfg);
  }

  hasPending(): boolean {
    return !!this.pending;
  }

  private async run(cfg: OauthConfig, generation: number): Promise<void> {
    const headless = likelyHeadless(this.host.env);
    const loopback = headless ? undefined : await OauthLoopback.open();
    this.loopback = loopback;
    try {
      const out = await this.loginAction(cfg, headless, loopback?.redirectUri);
      if (generation !== this.generation) throw new Superseded();
      const flow = typeof out.flow === 'string' ? out.flow : '';
      if (DONE_FLOWS.has(flow)) return await this.host.finalize(cfg);
      const url = typeof out.url === 'string' ? out.url.trim() : '';
      if (!url) throw new Error('login script did not return a url');
      if (loopback && typeof out.state === 'string') loopback.expectedState = out.state;
      const auto = out.auto_complete === true || AUTO_FLOWS.has(flow);
      const needsCode = !auto && (headless || flow === 'manual');
      this.host.emit({
        type: 'oauth_prompt',
        url,
        code: typeof out.code === 'string' && out.code ? out.code : null,
        message:
          typeof out.message === 'string' && out.message
            ? out.message
            : headless
              ? 'Open the URL, approve, then paste the code via /oauth-code.'
              : 'Open the URL to log in.',
        needs_code: needsCode,
      });
      if (!headless) openBrowser(url, this.host.env, this.host.log);
      const redirect = loopback ? { redirect_uri: loopback.redirectUri } : {};
      const pendingBlob = out.pending !== undefined ? { pending: out.pending } : {};
      if (auto) {
        await this.complete(cfg, { code: '', ...pendingBlob, ...redirect });
      } else if (needsCode) {
        this.pending = { providerId: cfg.providerId, ...(typeof out.state === 'string' ? { state: out.state } : {}), ...pendingBlob };
        this.host.emit({ type: 'info', message: AWAITING_CODE_TEXT });
        return;
      } else {
        const got = await loopback!.wait(this.host.redirectWaitMs ?? OAUTH_REDIRECT_WAIT_MS);
        await this.complete(cfg, { code: got.code, ...pendingBlob, ...redirect });
      }
      if (generation !== this.generation) throw new Superseded();
      await this.host.finalize(cfg);
    } finally {
      loopback?.close();
      if (this.loopback === loopback) this.loopback = undefined;
    }
  }

  private async loginAction(cfg: OauthConfig, headless: boolean, redirectUri: string | undefined): Promise<Record<string, unknown>> {
    let out: Record<string, unknown>;
    try {
      out = await runOauthAction(this.host, cfg, 'login', { headless, ...(redirectUri ? { redirect_uri: redirectUri } : {}) });
    } catch (err) {
      throw new Error(`OAuth login failed: ${(err as Error).message}`);
    }
    const refusal = scriptRefusal(out);
    if (refusal) throw new Error(`OAuth login failed: ${refusal}`);
    return out;
  }

  private async complete(cfg: OauthConfig, extra: Record<string, unknown>): Promise<void> {
    let out: Record<string, unknown>;
    try {
      out = await runOauthAction(this.host, cfg, 'complete', extra);
    } catch (err) {
      throw new Error(`OAuth complete failed: ${(err as Error).message}`);
    }
    const refusal = scriptRefusal(out);
    if (refusal) throw new Error(`OAuth complete failed: ${refusal}`);
  }
}

/**
 * Opens the URL in the user's browser: `$BROWSER` when set (as xdg-open and Python's webbrowser honour it), else the
 * platform's opener. Only when not headless: a client that opens URLs itself runs the core with CATALYST_CODE_NO_BROWSER=1.
 */
function openBrowser(url: string, env: NodeJS.ProcessEnv, log: (m: string) => void): void {
  const [program, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(program, args, { stdio: 'ignore', detached: true, env });
    child.on('error', (e) => log(`[oauth] could not open a browser (${program}): ${e.message}`));
    child.unref();
  } catch (e) {
    log(`[oauth] could not open a browser (${program}): ${(e as Error).message}`);
  }
}
