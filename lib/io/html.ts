/**
 * Escapes text for HTML element content and double- or single-quoted attribute values: the five
 * characters that can end or change markup become named entities (`'` as `&#39;`, which HTML 4 and
 * XML readers both know). The project's one HTML escape — tables, figure pages and the report use it.
 *
 * @example
 * escapeHtml('<a href="x">Tom & Jerry\'s</a>'); // => "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
 * escapeHtml("plain text"); // => "plain text"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);
}

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
