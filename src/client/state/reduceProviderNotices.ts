// What the core says about its providers beyond the model list: a refresh's count, and a rate limit's end.
import type { SessionState } from '../../shared/sessionState';
import { type UntrustedEvent, num } from './eventFields';
import { addNotice } from './reduceNotices';
import { modelsRefreshedText } from '../presentation/modelGroups';

/** `models_refreshed` (after refresh_models): a quiet notice; the new list itself comes as `models`. */
export function reduceModelsRefreshed(s: SessionState, e: UntrustedEvent<'models_refreshed'>): SessionState {
  const count = num(e.count);
  return count === undefined ? s : addNotice(s, { level: 'info', text: modelsRefreshedText(count) });
}

/** An `error` of our core for a provider's 429 says until when (unix seconds): the status bar shows it until then. */
export function reduceRateLimited(s: SessionState, e: UntrustedEvent<'error'>): SessionState {
  const until = num(e.rate_limited_until);
  return until === undefined || until <= 0 ? s : { ...s, rateLimitedUntil: until };
}
