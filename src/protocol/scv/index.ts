// The SCV v3 wire (research scv.md): client messages, server events, common types, limits and client frames.
// Import it as '../protocol/scv'; src/protocol/index.ts does not re-export it (its names would clash with Catalyst's).
export * from './constants';
export * from './types';
export * from './clientMessages';
export * from './serverEvents';
export * from './frame';
