import type { ObjectTypeDoc } from '../db/collections.js';

/** Stored Object type → v3 JSON. Option flags answer as 1/0, as the API always has. */
export function renderObjectType(t: ObjectTypeDoc): Record<string, unknown> {
  return {
    id: t._id.toHexString(),
    slug: t.slug,
    title: t.title,
    singular: t.singular,
    emoji: t.emoji,
    singleton: t.singleton,
    metafields: t.metafields,
    options: { slug_field: t.options.slug_field ? 1 : 0, content_editor: t.options.content_editor ? 1 : 0 },
    localization: t.localization,
    locales: t.locales,
    priority_locale: t.priority_locale,
    preview_link: t.preview_link,
    extensions: t.extensions,
    order: t.order,
    created_at: t.created_at.toISOString(),
    modified_at: t.modified_at.toISOString(),
  };
}
