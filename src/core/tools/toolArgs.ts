/** Reading a model's tool arguments defensively: models send missing keys, wrong types and numbers as strings. */
import { ToolInputError } from './outcome';

type Args = Record<string, unknown>;

export function requiredString(args: Args, key: string, options: { allowEmpty?: boolean } = {}): string {
  const value = args[key];
  if (typeof value !== 'string') throw new ToolInputError(`'${key}' is required and must be a string`);
  if (!options.allowEmpty && value === '') throw new ToolInputError(`'${key}' must not be empty`);
  return value;
}

export function optionalString(args: Args, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`'${key}' must be a string`);
  return value;
}

export function optionalBoolean(args: Args, key: string): boolean {
  const value = args[key];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ToolInputError(`'${key}' must be a boolean`);
}

/** A non-negative integer, or undefined when absent. Accepts numeric strings; floors fractions. */
export function optionalCount(args: Args, key: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) {
    throw new ToolInputError(`'${key}' must be a non-negative number`);
  }
  return Math.floor(number);
}

/** A string, or an array of strings, as a list; undefined when absent. */
export function optionalStringList(args: Args, key: string): string[] | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw new ToolInputError(`'${key}' must be a string or an array of strings`);
}

export function requiredArray(args: Args, key: string): unknown[] {
  const value = args[key];
  if (!Array.isArray(value)) throw new ToolInputError(`'${key}' is required and must be an array`);
  if (value.length === 0) throw new ToolInputError(`'${key}' must not be empty`);
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
