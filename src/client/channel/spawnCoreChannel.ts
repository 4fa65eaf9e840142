import type { CoreChannel } from './coreChannel';
import { CoreConnection } from './coreConnection';
import type { CoreLaunch } from './coreLaunch';
import type { ApprovalRules } from './scv/approvalRules';
import { ScvConnection } from './scv/scvConnection';

/**
 * Starts the core `launch` describes, speaking its own protocol; the session only ever sees Catalyst v2. `rules` (SCV
 * only) are the session's "allow for this session" / "always allow" answers, kept by the caller across restarts.
 */
export function spawnCoreChannel(launch: CoreLaunch, cwd: string, clientVersion: string, rules?: ApprovalRules): CoreChannel {
  if (launch.kind === 'scv') return ScvConnection.spawn(launch, cwd, clientVersion, { rules });
  return CoreConnection.spawn(launch, cwd, clientVersion);
}
