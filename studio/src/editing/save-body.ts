import type { ContentObject, ObjectType } from '../types';
import { editValues, writeValues, type Values } from '../values';

/** The form's state: what the editor shows and the person types into. */
export interface Draft {
  title: string;
  slug: string;
  content: string;
  locale: string;
  metadata: Values;
  publishAt: string;
}

export type SaveMode = 'draft' | 'publish' | 'schedule';

export const shown = (flag: boolean | number | undefined) => flag !== 0 && flag !== false;

export function draftOf(type: ObjectType, o: ContentObject | null): Draft {
  return {
    title: o?.title ?? '',
    slug: o?.slug ?? '',
    content: o?.content ?? '',
    locale: o?.locale ?? type.priority_locale ?? type.locales?.[0] ?? '',
    metadata: editValues(type.metafields, o?.metadata ?? {}),
    publishAt: '',
  };
}

/** The body a save sends (throws JsonProblem for a JSON field that does not parse). */
export function saveBody(type: ObjectType, draft: Draft, mode: SaveMode): Record<string, unknown> {
  const body: Record<string, unknown> = {
    title: draft.title,
    metadata: writeValues(type.metafields, draft.metadata),
    status: mode === 'publish' ? 'published' : 'draft',
  };
  if (shown(type.options?.slug_field) && draft.slug) body.slug = draft.slug;
  if (shown(type.options?.content_editor)) body.content = draft.content;
  if (type.localization && draft.locale) body.locale = draft.locale;
  if (mode === 'schedule') body.publish_at = new Date(draft.publishAt).toISOString();
  return body;
}

export const SAVED_NOTICE: Record<SaveMode, string> = {
  draft: 'Draft saved.',
  publish: 'Published.',
  schedule: 'Publish scheduled.',
};
