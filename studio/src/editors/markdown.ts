import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Markdown as sanitized HTML: what a preview may show without running anything. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html);
}
