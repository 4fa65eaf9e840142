// The wire protocol: types, catalogs, versions and the NDJSON codec.
// ndjson.ts needs Node (node:buffer); browser code should import only types from here.
export * from './common';
export * from './pricing';
export * from './commands';
export * from './events';
export * from './version';
export * from './subagents';
export * from './ndjson';
