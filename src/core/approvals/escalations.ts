// Tool kinds the user approved with "always" (research §4.5), persisted beside the
// session in `<session file>.escalations`.
//
// Upstream writes the file as a JSON array (`["destructive"]`); older or hand-written
// files may list one kind per line. Both are read; the JSON array is written so that the
// upstream core can read our sessions.
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '../platform/atomicWrite';

export type EscalationKind = 'readonly' | 'destructive';

const KINDS: readonly string[] = ['readonly', 'destructive'];

export class Escalations {
  private readonly kinds = new Set<EscalationKind>();
  /** Why the last write of the sidecar failed, if it did; the escalation still holds in memory. */
  persistError?: string;

  /** `file` is the sidecar itself (see sidecarFor); without one, escalations live in memory only. */
  constructor(private readonly file?: string) {
    if (file) for (const k of readKinds(file)) this.kinds.add(k);
  }

  static sidecarFor(sessionFile: string): string {
    return `${sessionFile}.escalations`;
  }

  has(kind: string): boolean {
    return this.kinds.has(kind as EscalationKind);
  }

  list(): EscalationKind[] {
    return [...this.kinds];
  }

  /** Never throws: a failure to persist is recorded in persistError. */
  add(kind: EscalationKind): void {
    if (this.kinds.has(kind)) return;
    this.kinds.add(kind);
    this.persist(() => writeKinds(this.file!, this.list()));
  }

  clear(): void {
    this.kinds.clear();
    this.persist(() => rmSync(this.file!, { force: true }));
  }

  private persist(write: () => void): void {
    if (!this.file) return;
    try {
      write();
      this.persistError = undefined;
    } catch (err) {
      this.persistError = `could not write ${this.file}: ${(err as Error).message}`;
    }
  }
}

function readKinds(file: string): EscalationKind[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return [];
  }
  let entries: unknown[];
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      entries = Array.isArray(parsed) ? parsed : [];
    } catch {
      entries = [];
    }
  } else {
    entries = text.split(/\r?\n/).map((l) => l.trim());
  }
  return entries.filter((k): k is EscalationKind => typeof k === 'string' && KINDS.includes(k));
}

function writeKinds(file: string, kinds: EscalationKind[]): void {
  writeFileAtomicSync(file, `${JSON.stringify(kinds)}\n`, { newFileMode: 0o644 });
}
