// Compile-time checks of our protocol extensions: `npm run typecheck` (tsc over tsconfig.json, which includes src/)
// fails when one of these types changes. Nothing imports or runs this file; a `@ts-expect-error` line is a value the
// types must refuse (tsc reports an unused one as an error).
import type { CheckpointKind } from './common';
import type { CommandOf } from './commands';
import type { EventMetadata, EventOf, Unstamped } from './events';

/** True only when A and B are the same type (optional and readonly modifiers included). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type FieldsOf<T, K extends keyof T> = Pick<T, K>;

// ── Commands ────────────────────────────────────────────────────────────────

// restore_checkpoint may name files (capability checkpoint_files); checkpoint_file names one.
export type _RestorePaths = Assert<
  Equals<FieldsOf<CommandOf<'restore_checkpoint'>, 'type' | 'id' | 'paths'>, { type: 'restore_checkpoint'; id: string; paths?: string[] }>
>;
export type _CheckpointFile = Assert<Equals<CommandOf<'checkpoint_file'>, { type: 'checkpoint_file'; id: string; path: string }>>;
// approve carries the user's edited content (capability approval_edited_content).
export type _EditedContent = Assert<Equals<CommandOf<'approve'>['edited_content'], string | undefined>>;

// @ts-expect-error the paths are strings
export const _restoreNumbers: CommandOf<'restore_checkpoint'> = { type: 'restore_checkpoint', id: 'cp-1', paths: [1] };
// @ts-expect-error edited_content is the file's text
export const _editedNumber: CommandOf<'approve'> = { type: 'approve', request_id: 'apv-1-c', decision: 'yes', edited_content: 5 };
// @ts-expect-error a decision outside ApprovalDecision
export const _maybe: CommandOf<'approve'> = { type: 'approve', request_id: 'apv-1-c', decision: 'maybe' };

// ── Events ──────────────────────────────────────────────────────────────────

export type _Changes = Assert<
  Equals<
    FieldsOf<EventOf<'checkpoint_changes'>, 'type' | 'id' | 'files'>,
    { type: 'checkpoint_changes'; id: string; files: { path: string; status: 'added' | 'modified' | 'deleted' }[] }
  >
>;
export type _FileAnswer = Assert<
  Equals<
    FieldsOf<EventOf<'checkpoint_file'>, 'type' | 'id' | 'path' | 'exists' | 'content' | 'binary' | 'too_large'>,
    { type: 'checkpoint_file'; id: string; path: string; exists: boolean; content?: string; binary?: true; too_large?: true }
  >
>;
export type _Restored = Assert<
  Equals<
    FieldsOf<EventOf<'checkpoint_restored'>, 'type' | 'id' | 'kind' | 'restored' | 'removed'>,
    { type: 'checkpoint_restored'; id: string; kind: CheckpointKind; restored?: string[]; removed?: string[] }
  >
>;
// Every event carries the lifecycle metadata the core's event sink stamps (tool_result as the example).
export type _Metadata = Assert<Equals<FieldsOf<EventOf<'tool_result'>, keyof EventMetadata>, EventMetadata>>;

export const _renamed: EventOf<'checkpoint_changes'> = {
  type: 'checkpoint_changes',
  id: 'cp-1',
  // @ts-expect-error a change status outside CheckpointChangeStatus
  files: [{ path: 'a.txt', status: 'renamed' }],
};
// @ts-expect-error binary is only ever `true`
export const _notBinary: EventOf<'checkpoint_file'> = { type: 'checkpoint_file', id: 'cp-1', path: 'a.txt', exists: true, binary: false };
export const _v3: EventOf<'tool_result'> = {
  type: 'tool_result',
  id: 'call_1',
  ok: true,
  output: '',
  status: 'success',
  // @ts-expect-error protocol v2 only
  protocol_version: 3,
};

// ── Events as the core writes them (Unstamped): the union checks every emit call ─────────

// @ts-expect-error no event has this type
export const _misspeltType: Unstamped = { type: 'infoo', message: 'x' };
// @ts-expect-error a misspelt field is an excess property
export const _misspeltField: Unstamped = { type: 'info', mesage: 'x' };
// @ts-expect-error the sink stamps the metadata; an emitter in a run may not set it
export const _sequenced: Unstamped = { type: 'delta', text: 'x', sequence: 1 };
// An open event keeps its index signature and its named fields, which stay required.
export const _openEvent: Unstamped = {
  type: 'compacted',
  before_tokens: 1,
  after_tokens: 1,
  within_limit: true,
  summary_chars: 0,
  scope: 'session',
  trigger: 'manual',
};
// @ts-expect-error an open event's named fields are still required
export const _openMissing: Unstamped = { type: 'compacted', trigger: 'manual' };
