import { records, str, strings } from '../state/eventFields';

/** One durable note as the memory list shows it. */
export interface MemoryView {
  id: string;
  text: string;
  /** "workspace" or "global" (ours); upstream's entries may name another. */
  scope?: string;
  tags: string[];
}

/**
 * `memory_list.entries`, read defensively: ours carry `text`, upstream's file-backed memories `name`, `description` and
 * `content`; an entry without an id cannot be forgotten and is left out.
 */
export function memoryEntries(raw: unknown): MemoryView[] {
  const out: MemoryView[] = [];
  for (const e of records(raw)) {
    const id = str(e.id);
    const text = str(e.text) ?? str(e.content) ?? str(e.description) ?? str(e.name);
    if (!id || text === undefined) continue;
    const view: MemoryView = { id, text: text.trim(), tags: strings(e.tags) };
    const scope = str(e.scope);
    if (scope) view.scope = scope;
    out.push(view);
  }
  return out;
}
