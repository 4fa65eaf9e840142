import fs from 'node:fs';
import path from 'node:path';

/**
 * Scratch directories of a snapshot (temporary index, staging repo) carry the creating core's pid, so a core killed
 * half-way leaves something the next core can recognise as abandoned — without touching the scratch of another core
 * that is alive and working on the same workspace (two windows).
 */
export function makeScratchDir(parent: string, prefix: string): string {
  fs.mkdirSync(parent, { recursive: true });
  sweepAbandonedScratch(parent, prefix);
  return fs.mkdtempSync(path.join(parent, `${prefix}${process.pid}-`));
}

/** Removes `<prefix><pid>-*` directories whose process is gone (and pid-less ones from before this naming). */
export function sweepAbandonedScratch(parent: string, prefix: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (Number.isInteger(pid) && pid > 0 && (pid === process.pid || isAlive(pid))) continue;
    fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
