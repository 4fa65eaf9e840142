/** Building a tool's targets from the model's raw arguments, which may be missing or of the wrong type. */
import type { ToolTargets } from './types';

type Args = Record<string, unknown>;

export function stringArgument(args: Args, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' ? value : undefined;
}

/** The targets of a tool whose paths are these arguments, each one when it is a non-empty string. */
export function pathArguments(...keys: string[]): (args: Args) => ToolTargets {
  return (args) => ({ paths: keys.map((key) => stringArgument(args, key)).filter((value): value is string => !!value) });
}

/** The targets of a tool that touches no workspace path. */
export function noTargets(): ToolTargets {
  return { paths: [] };
}

/** The targets of a tool whose permission rules match this string argument (fetch's `url`), not a workspace path. */
export function subjectArgument(key: string): (args: Args) => ToolTargets {
  return (args) => ({ paths: [], subject: stringArgument(args, key) });
}
