import type { ObjectTypeDoc } from '../db/collections.js';
import type { Metafield } from '../types/metafield.js';
import { versionOf } from '../http/if-match.js';

/** An Object type as the v3 API answers it (schemas/ObjectType.json). */
export type ApiObjectType = {
  id: string;
  slug: string;
  title: string;
  singular: string;
  emoji: string;
  singleton: boolean;
  metafields: Metafield[];
  options: { slug_field: 0 | 1; content_editor: 0 | 1 };
  localization: boolean;
  locales: string[];
  priority_locale: string | null;
  preview_link: string;
  extensions: unknown;
  order: number;
  created_at: string;
  modified_at: string;
  /** The version this is (lib/http/if-match.ts): what If-Match names to change exactly it. */
  version: string;
};

/** Stored Object type → v3 JSON. Option flags answer as 1/0, as the API always has. */
export function renderObjectType(t: ObjectTypeDoc): ApiObjectType {
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
    version: versionOf(t),
  };
}

/* Bodies of the Object type responses (schemas/ObjectTypeResponse.json, ObjectTypeList.json). */
export type ObjectTypeResponse = { object_type: ApiObjectType };
export type ObjectTypeList = { object_types: ApiObjectType[] };
