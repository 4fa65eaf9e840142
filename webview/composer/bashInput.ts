/** A composer text that runs a shell command itself (`user_bash`): `!cmd`, or `!!cmd` to keep the output out of the model's context. */
export interface BashInput {
  /** Empty when only `!` or `!!` was typed. */
  command: string;
  excludeFromContext: boolean;
}

/** `!cmd` / `!!cmd` (leading blanks ignored, as upstream's composer); any other text is not a shell command. */
export function parseBashInput(text: string): BashInput | undefined {
  const match = /^(!!?)([\s\S]*)$/.exec(text.trim());
  if (!match) return undefined;
  return { command: match[2].trim(), excludeFromContext: match[1] === '!!' };
}

/** Why a shell command cannot be sent now, or undefined when it can. */
export function bashInputRefusal(input: BashInput, running: boolean, images: number): string | undefined {
  if (!input.command) return 'Type a shell command after ! (or !! to keep its output out of the context).';
  if (images > 0) return 'A shell command takes no images: remove them, or send the text as a prompt without the !.';
  // Our core and upstream's refuse user_bash during a run (it would race the turn's own commands).
  if (running) return 'A turn is running: run the shell command after it finishes.';
  return undefined;
}
