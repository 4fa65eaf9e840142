import crypto from 'node:crypto';

/** 'cp-<unix_secs>-<16 hex>', the upstream checkpoint id format. */
export function newCheckpointId(now: Date = new Date()): string {
  return `cp-${Math.floor(now.getTime() / 1000)}-${crypto.randomBytes(8).toString('hex')}`;
}
