import { randomBytes } from 'node:crypto';

const hex16 = (): string => randomBytes(8).toString('hex');

/** `session-<16hex>-<16hex>` (research §1.1). */
export const newSessionId = (): string => `session-${hex16()}-${hex16()}`;
/** `run-<16hex>-<16hex>`. */
export const newRunId = (): string => `run-${hex16()}-${hex16()}`;

let lastResourceId = 0;
/** The id of one entry of `runtime_status.resources`: a number unique in this process (upstream's RESOURCE_SEQUENCE). */
export const newResourceId = (): number => ++lastResourceId;
