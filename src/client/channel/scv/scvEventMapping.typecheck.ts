// Compile-time check of how the SCV translator reads a server's events (see state/eventFields.typecheck.ts for the core's):
// `npm run typecheck` fails when the read is no longer refused. Nothing imports or runs this file.
import type { UntrustedServerEvent } from './scvEventMapping';

declare const proposed: UntrustedServerEvent<'tool.proposed'>;

// @ts-expect-error an SCV server event reads by the SCV mirror's names (`call_id`)
export const _callId: unknown = proposed.callId;
