import type { CoreConfig } from '../config/config';
import { GoalController } from '../goal/goalController';
import type { EventFields } from '../runtime/eventSink';
import { CoreRuntime } from './coreRuntime';
import { goalHost } from './goalHost';

/**
 * The runtime with its goal mode wired through the GoalHost port. Built here, beside the runtime, so `coreRuntime.ts`
 * never imports the use-cases (turns, checkpoints) that themselves take the runtime.
 */
export function createCoreRuntime(
  config: CoreConfig,
  env: NodeJS.ProcessEnv,
  write: (line: string) => void,
  log: (message: string) => void,
  onEmit?: (event: EventFields) => void,
): CoreRuntime {
  return new CoreRuntime(config, env, write, log, onEmit, (rt) => new GoalController(goalHost(rt)));
}
