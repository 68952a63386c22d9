import DOMPurify from 'dompurify';
import { diffHtml } from '../../../lib/util/token-diff';
import { renderMarkdown } from '../editors/markdown';

/*
 * Rich text and markdown compared as they render. Loaded on first use (with DOMPurify and marked),
 * as the editors are. Each side is sanitized before the diff (so no tag is cut or made by it) and
 * the result again (the diff keeps the new side's tags, and drops the old side's).
 */

export function htmlChanges(before: string, after: string): string {
  return DOMPurify.sanitize(diffHtml(DOMPurify.sanitize(before), DOMPurify.sanitize(after)));
}

export function markdownChanges(before: string, after: string): string {
  return DOMPurify.sanitize(diffHtml(renderMarkdown(before), renderMarkdown(after)));
}
