import type { Page } from 'playwright-core';

/**
 * Everything the workbench page keeps in the browser (localStorage and every IndexedDB store, where VS Code for the web
 * persists workbench state, webview state included), as one string per entry: "<where>: <key> = <value>".
 */
export async function dumpBrowserStorage(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const g = globalThis as any;
    const out: string[] = [];
    const show = (v: unknown): string => {
      if (typeof v === 'string') return v;
      if (v instanceof Uint8Array || v instanceof ArrayBuffer) return new TextDecoder().decode(v);
      try {
        return JSON.stringify(v);
      } catch {
        return String(v);
      }
    };
    for (let i = 0; i < g.localStorage.length; i++) {
      const key = g.localStorage.key(i);
      out.push(`localStorage: ${key} = ${g.localStorage.getItem(key)}`);
    }
    const request = <T>(r: any): Promise<T> =>
      new Promise((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const databases: { name: string }[] = await g.indexedDB.databases();
    for (const { name } of databases) {
      const db = await request<any>(g.indexedDB.open(name));
      for (const store of Array.from(db.objectStoreNames as ArrayLike<string>)) {
        const tx = db.transaction(store, 'readonly');
        const keys = await request<unknown[]>(tx.objectStore(store).getAllKeys());
        const values = await request<unknown[]>(tx.objectStore(store).getAll());
        keys.forEach((k, i) => out.push(`indexedDB ${name}/${store}: ${show(k)} = ${show(values[i])}`));
      }
      db.close();
    }
    return out;
  });
}
