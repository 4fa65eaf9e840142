/** Validating the `edits` argument of the edit tool into EditSpecs. */
import type { EditSpec } from '../../protocol/edits';
import { ToolInputError } from './outcome';
import { isRecord } from './toolArgs';

export function parseEditSpecs(value: unknown): EditSpec[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new ToolInputError("'edits' is required and must be a non-empty array of {search, replace}");
  }
  return value.map((item, index) => parseEditSpec(item, index + 1));
}

function parseEditSpec(item: unknown, number: number): EditSpec {
  if (!isRecord(item)) throw new ToolInputError(`edit ${number}: must be an object {search, replace}`);
  const { search, replace, replace_all, normalize_whitespace } = item;
  if (typeof search !== 'string') throw new ToolInputError(`edit ${number}: 'search' must be a string`);
  if (typeof replace !== 'string') throw new ToolInputError(`edit ${number}: 'replace' must be a string (use "" to delete)`);
  for (const [key, flag] of [['replace_all', replace_all], ['normalize_whitespace', normalize_whitespace]] as const) {
    if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
      throw new ToolInputError(`edit ${number}: '${key}' must be a boolean`);
    }
  }
  return { search, replace, replace_all: replace_all === true, normalize_whitespace: normalize_whitespace === true };
}
