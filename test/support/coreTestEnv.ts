// What every core a test spawns inherits from the test runner's own environment, whatever environment the test builds
// for it: the jitter test mode (src/core/runtime/testJitter.ts), which `npm run test:stress` sets for the core suites.
import { TEST_JITTER_ENV } from '../../src/core/runtime/testJitter';

export function inheritedCoreEnv(): Record<string, string> {
  const jitter = process.env[TEST_JITTER_ENV];
  return jitter ? { [TEST_JITTER_ENV]: jitter } : {};
}
