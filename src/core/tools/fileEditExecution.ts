/** Executing write_file, edit and patch: compute the proposal, honour the user's edited version, write atomically. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { makeUnifiedDiff } from '../../protocol/edits';
import { writeFileAtomic } from '../platform/atomicWrite';
import { type FileEditToolName, proposedContent, readTargetFile, type TargetFile } from './fileProposal';
import { succeeded } from './outcome';
import type { ToolContext, ToolOutcome } from './types';

export async function executeFileEdit(name: FileEditToolName, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
  const target = await readTargetFile(args, ctx.workspace);
  const { content, userModified } = contentToWrite(name, args, target, ctx.editedContent);
  if (content === target.oldContent) {
    return succeeded(`${target.path} already has exactly this content; nothing was written`);
  }
  await fs.mkdir(path.dirname(target.abs), { recursive: true });
  await writeFileAtomic(target.abs, content);
  const diff = makeUnifiedDiff(target.path, target.oldContent ?? '', content);
  const output = userModified
    ? `The user modified your proposal before applying it. This is what was written to ${target.path} ` +
      `(re-read the file before editing it again):\n${diff}`
    : summary(name, args, target, content);
  return succeeded(output, { diff, fileChanges: [{ path: target.path, unified_diff: diff, tool: name }] });
}

/**
 * The user's edited content wins when present; it counts as a modification unless it equals what the model's
 * arguments produce (which may not even apply any more: the user's version is written all the same).
 */
function contentToWrite(
  name: FileEditToolName,
  args: Record<string, unknown>,
  target: TargetFile,
  editedContent: string | undefined,
): { content: string; userModified: boolean } {
  if (editedContent === undefined) return { content: proposedContent(name, args, target), userModified: false };
  let proposal: string | undefined;
  try {
    proposal = proposedContent(name, args, target);
  } catch {
    proposal = undefined;
  }
  return { content: editedContent, userModified: proposal !== editedContent };
}

function summary(name: FileEditToolName, args: Record<string, unknown>, target: TargetFile, content: string): string {
  switch (name) {
    case 'write_file':
      return target.oldContent === null
        ? `created ${target.path} (${Buffer.byteLength(content)} bytes)`
        : `wrote ${Buffer.byteLength(content)} bytes to ${target.path}`;
    case 'edit': {
      const count = Array.isArray(args.edits) ? args.edits.length : 0;
      return `applied ${count} edit${count === 1 ? '' : 's'} to ${target.path}`;
    }
    case 'patch':
      return `applied patch to ${target.path}${target.oldContent === null ? ' (new file)' : ''}`;
  }
}
