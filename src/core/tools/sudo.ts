/** Running commands that use sudo without sudo ever reaching for a terminal: the password goes in on stdin. */

const SUDO_WORD = /\bsudo\b/g;

/** Whether the command mentions the word `sudo` anywhere (over-matching is fine: it only means asking the user). */
export function usesSudo(command: string): boolean {
  return new RegExp(SUDO_WORD.source).test(command);
}

/** Each `sudo` made to read the password from stdin (-S) without printing a prompt (-p ''). */
export function withSudoReadingStdin(command: string): string {
  return command.replace(SUDO_WORD, "sudo -S -p ''");
}

/** Removes any echo of the password from output (only for passwords long enough not to mangle ordinary text). */
export function scrubPassword(output: string, password: string | undefined): string {
  if (!password || password.length < 4) return output;
  return output.split(password).join('********');
}
