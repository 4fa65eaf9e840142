import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { CORE_VERSION, NdjsonDecoder } from '../protocol';
import { HELP_TEXT, parseCli } from './config/cli';
import { loadConfig } from './config/config';
import { dispatch } from './commands/dispatcher';
import { cancelActive } from './app/turns';
import { createCoreRuntime } from './app/createCoreRuntime';
import { publishPresence } from './tools/presenceRecords';
import { redactSecrets } from './runtime/redact';
import { releaseAtCommand } from './runtime/testJitter';

export const MAX_COMMAND_BYTES = 8 * 1024 * 1024;
/** On exit: how long the cancelled run may take to unwind, and a store compaction to finish before it is stopped. */
const RUN_UNWIND_MS = 3000;
const COMPACTION_GRACE_MS = 1000;

function main(): void {
  const cli = parseCli(process.argv.slice(2));
  if (cli.help) return void process.stdout.write(HELP_TEXT.endsWith('\n') ? HELP_TEXT : HELP_TEXT + '\n');
  if (cli.version) return void process.stdout.write(`catalyst-code-core ${CORE_VERSION}\n`);

  const config = loadConfig(cli, process.env, { home: homedir(), cwd: process.cwd() });
  const debugLog = openDebugLog(config.debugLog);
  const log = (message: string): void => {
    process.stderr.write(`[core] ${message}\n`);
    debugLog?.({ dir: 'log', message });
  };
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  const rt = createCoreRuntime(
    config,
    process.env,
    (line) => void process.stdout.write(line),
    log,
    debugLog ? (event) => debugLog({ dir: 'out', event }) : undefined,
  );

  const startedAt = Math.floor(Date.now() / 1000);
  const presence = publishPresence(rt.presenceDir, () => rt.presenceRecord(startedAt), log);

  let chain: Promise<void> = Promise.resolve();
  const decoder = new NdjsonDecoder({
    maxLineBytes: MAX_COMMAND_BYTES,
    onValue: (value) => {
      debugLog?.({ dir: 'in', command: redactSecrets(value) });
      chain = chain.then(() => {
        releaseAtCommand();
        return dispatch(rt, value);
      });
    },
    onError: (err) => {
      const message =
        err.kind === 'oversize'
          ? `command line of ${err.bytes} bytes exceeds the ${MAX_COMMAND_BYTES}-byte limit; ignored`
          : `bad command: ${err.message}`;
      chain = chain.then(() => rt.emit({ type: 'error', code: 'invalid_command', message }));
    },
  });
  process.stdin.on('data', (chunk: Buffer) => decoder.push(chunk));
  process.stdin.on('error', (err) => rt.emit({ type: 'error', code: 'protocol_read_error', message: `stdin read failed: ${err.message}` }));
  let exiting = false;
  const shutdown = async (): Promise<void> => {
    if (exiting) return;
    exiting = true;
    cancelActive(rt, 'shutdown');
    const unwound = Promise.race([rt.runs.idle(), new Promise((r) => setTimeout(r, RUN_UNWIND_MS))]);
    // Plugins' session_shutdown hooks run once, alongside the unwinding (each bounded by its own timeout).
    await Promise.all([unwound, rt.checkpoints.finishBackgroundWork(COMPACTION_GRACE_MS), rt.plugins.shutdown()]);
    rt.conversation.sync();
    rt.conversation.close();
    presence.stop();
    process.exit(0);
  };
  process.stdin.on('end', () => {
    decoder.end();
    chain = chain.then(shutdown);
  });
  // SIGTERM (a system shutting down, a supervisor) ends the core as stdin EOF does; a second one ends it at once.
  process.on('SIGTERM', () => (exiting ? process.exit(143) : void shutdown()));
  process.on('uncaughtException', (err) => {
    log(`uncaught: ${err.stack ?? err.message}`);
    rt.emit({ type: 'error', code: 'internal_error', message: `internal error: ${err.message}` });
  });
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
}

/** `--debug-log FILE`: every command in and event out as JSONL, secrets redacted. */
function openDebugLog(file: string | undefined): ((record: Record<string, unknown>) => void) | undefined {
  if (!file) return undefined;
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    return undefined;
  }
  return (record) => {
    try {
      appendFileSync(file, JSON.stringify({ ts: Date.now(), ...record }) + '\n');
    } catch {
      // A debug log that cannot be written must never take the core down.
    }
  };
}

main();
