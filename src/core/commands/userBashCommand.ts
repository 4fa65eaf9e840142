import type { CommandOf } from '../../protocol';
import type { CoreRuntime } from '../app/coreRuntime';
import { runUserBash } from '../tools/bashTool';

/** `user_bash` (`!cmd` / `!!cmd`): runs in the workspace without approval; the output joins the context unless excluded. */
export function handleUserBash(rt: CoreRuntime, cmd: CommandOf<'user_bash'>): void {
  const command = typeof cmd.command === 'string' ? cmd.command : '';
  if (!command.trim()) return void rt.emit({ type: 'error', code: 'invalid_command', message: 'user_bash needs a command' });
  if (rt.runs.active) return void rt.emit({ type: 'error', code: 'busy', message: 'a turn is running; run the command after it finishes' });
  const refusal = rt.refuseTool('bash');
  if (refusal) return void rt.emit({ type: 'bash_execution', command, ok: false, output: refusal, exclude_from_context: true });
  const exclude = cmd.exclude_from_context === true;
  rt.runs.start(rt.sessionId, 'user_bash', async (scope) => {
    const outcome = await runUserBash({ command }, rt.toolContext(scope));
    if (!exclude && !scope.cancelled) {
      rt.conversation.append({
        role: 'user',
        content: `I ran \`${command}\` in the workspace:\n\`\`\`\n${outcome.output.replace(/\n$/, '')}\n\`\`\``,
      });
      rt.conversation.sync();
    }
    rt.emitInRun(scope, { type: 'bash_execution', command, ok: outcome.ok, output: outcome.output, exclude_from_context: exclude });
  });
}
