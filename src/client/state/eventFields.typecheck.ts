// Compile-time checks of how the client reads a peer's events (eventFields.ts): `npm run typecheck` fails when a reducer
// could read a field the mirror does not name, use a value no guard has checked, or take another type's event. Nothing
// imports or runs this file; a `@ts-expect-error` line is a read the types must refuse (tsc reports an unused one).
import type { UntrustedEvent } from './eventFields';

declare const delta: UntrustedEvent<'delta'>;
declare const compacting: UntrustedEvent<'compacting'>;

// A field the mirror names reads as `unknown`: its value goes through a guard (str, num, …) before use.
export const _text: unknown = delta.text;
// @ts-expect-error a field the mirror does not name (a misspelt `text`)
export const _txt: unknown = delta.txt;
// @ts-expect-error the value is not trusted to be the string the mirror says it is
export const _length: number = delta.text.length;
// @ts-expect-error an open event (one with an index signature) still reads only the fields it names
export const _beforeToken: unknown = compacting.before_token;
// @ts-expect-error a reducer of one event type does not fit another type's slot in the reducer table
export const _miswired: (e: UntrustedEvent<'done'>) => void = (e: UntrustedEvent<'steer'>) => void e;
