// DOM identity across renders: tag the elements a view rendered, re-render, and see which are still the same nodes.
import type { Page } from 'playwright-core';

/**
 * Tags each element `selector` matches with `${prefix}${i}` in a JS property (not an attribute, so the DOM stays as
 * the app made it and no mutation is caused). Returns how many were tagged.
 */
export function tagNodes(page: Page, selector: string, prefix: string): Promise<number> {
  return page.evaluate(
    ({ selector, prefix }) => {
      const els = Array.from((globalThis as any).document.querySelectorAll(selector) as ArrayLike<Record<string, unknown>>);
      els.forEach((el, i) => (el.__catalystTag = `${prefix}${i}`));
      return els.length;
    },
    { selector, prefix },
  );
}

/** The tag of each element `selector` matches now, in document order; null for a node created since the tagging. */
export function nodeTags(page: Page, selector: string): Promise<(string | null)[]> {
  return page.evaluate((selector) => {
    const els = Array.from((globalThis as any).document.querySelectorAll(selector) as ArrayLike<Record<string, unknown>>);
    return els.map((el) => (typeof el.__catalystTag === 'string' ? el.__catalystTag : null));
  }, selector);
}
