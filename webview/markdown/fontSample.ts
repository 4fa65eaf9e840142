/**
 * A hidden sample of the Markdown that uses fonts of its own (a heading, bold, italic, inline code), laid out once when
 * the chat opens. The first use of a font face costs the frame that shows it the platform font lookup and a restyle:
 * in code-server, eight children's replies first showing bold and code together made a 60-90 ms frame at the start of
 * almost every subagents bench run; with the faces already in use, none (issue #14).
 */
export function markdownFontSample(doc: Document): HTMLElement {
  const el = doc.createElement('div');
  el.className = 'markdown md-font-sample';
  el.setAttribute('aria-hidden', 'true');
  el.innerHTML = '<h3>Aa</h3><p><strong>Aa</strong> <em>Aa</em> <code>Aa</code> <strong><code>Aa</code></strong></p>';
  return el;
}
