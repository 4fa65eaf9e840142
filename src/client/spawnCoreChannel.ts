import type { CoreChannel } from './coreChannel';
import { CoreConnection } from './coreConnection';
import type { CoreLaunch } from './coreLaunch';

/** Starts the core `launch` describes, speaking its own protocol; the session only ever sees Catalyst v2. */
export function spawnCoreChannel(launch: CoreLaunch, cwd: string, clientVersion: string): CoreChannel {
  if (launch.kind === 'scv') throw new Error('SCV servers are not supported yet');
  return CoreConnection.spawn(launch, cwd, clientVersion);
}
