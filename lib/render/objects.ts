import type { Picked } from '../query/props.js';
import type { ObjectDoc, ObjectTypeDoc, BucketDoc } from '../db/collections.js';
import { isObjectId } from '../util/values.js';
import { isPlainObject } from '../util/values.js';
import { renderMetadata, type ApiFileUrls, type ApiMetadata } from '../metafields/stored-values.js';
import { effectiveMetafields } from '../metafields/own.js';
import { versionOf } from '../http/if-match.js';
import { LRUCache } from 'lru-cache';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { mediaUrls } from '../util/media-urls.js';
import { listObjectTypes } from '../store/type-reads.js';

export interface RenderContext {
  /** Object types of the Bucket by slug: metadata is rendered by its type's Metafields. */
  types: ReadonlyMap<string, ObjectTypeDoc>;
  /** A property, not a method: renderers pass it on detached from the context. */
  fileUrls: (name: string) => ApiFileUrls | null;
}

/**
 * An Object as the v3 API answers it (schemas/Object.json). A type alias rather than an
 * interface, so `pickProps` accepts it as a record.
 */
export type ApiObject = {
  id: string;
  slug: string;
  title: string;
  type: string;
  status: 'published' | 'draft';
  content: string;
  locale: string | null;
  thumbnail: string | null;
  metadata: ApiMetadata;
  order: number;
  created_at: string;
  modified_at: string;
  /** The version this is (lib/http/if-match.ts): what If-Match names to write over exactly it. */
  version: string;
  published_at: string | null;
  created_by: string | null;
  modified_by: string | null;
  /** Only while a publish is scheduled: UNIX milliseconds, the spec's (legacy) form. */
  publish_at?: number;
  /** Only while a withdrawal is scheduled: UNIX milliseconds, like publish_at. */
  unpublish_at?: number;
};

/**
 * A stored Object as a read returns it. With `props`, lists project only `_id` and the fields
 * those props need, so any other field may be missing.
 */
export type ReadObject = Pick<ObjectDoc, '_id'> & Partial<ObjectDoc>;

/** A rendered ReadObject: the fields its projection left out are undefined, and `props` never asks for them. */
export type ProjectedApiObject = { [K in keyof ApiObject]?: ApiObject[K] | undefined };

/** Populate puts the related Object's stored document where its id was. */
function isStoredObject(value: unknown): value is ReadObject {
  return isPlainObject(value) && isObjectId(value._id);
}

/**
 * The fewest JSON bytes a rendered Object takes (empty strings, null optional fields, no
 * metadata): every reference to a related Object costs at least this much of a response, which
 * bounds relationship expansion by the response cap. A unit test holds the renderer to it.
 */
export const MIN_RENDERED_OBJECT_BYTES = 200;

/** Stored Object → v3 JSON. Related Objects already expanded into metadata render recursively. */
export function renderObject(doc: ObjectDoc, ctx: RenderContext): ApiObject;
export function renderObject(doc: ReadObject, ctx: RenderContext): ProjectedApiObject;
export function renderObject(doc: ReadObject, ctx: RenderContext): ProjectedApiObject {
  return renderShared(doc, ctx, new WeakMap());
}

/**
 * A page of Objects. Expansion shares one document among every reference to the same related
 * Object, so each is rendered once per response and the rendered result reused.
 */
export function renderObjects(docs: readonly ReadObject[], ctx: RenderContext): ProjectedApiObject[] {
  const memo = new WeakMap<object, ProjectedApiObject>();
  return docs.map((doc) => renderShared(doc, ctx, memo));
}

type Memo = WeakMap<object, ProjectedApiObject>;

function renderShared(doc: ReadObject, ctx: RenderContext, memo: Memo): ProjectedApiObject {
  const seen = memo.get(doc);
  if (seen) return seen;
  const out = renderOne(doc, ctx, memo);
  memo.set(doc, out);
  return out;
}

function renderOne(doc: ReadObject, ctx: RenderContext, memo: Memo): ProjectedApiObject {
  const type = doc.type === undefined ? undefined : ctx.types.get(doc.type);
  return {
    id: doc._id.toHexString(),
    slug: doc.slug,
    title: doc.title,
    type: doc.type,
    status: doc.status,
    content: doc.content,
    locale: doc.locale,
    // Stored as the media name; answered as its image URL, which takes processing parameters.
    thumbnail: doc.thumbnail ? (ctx.fileUrls(doc.thumbnail)?.imgproc_url ?? null) : doc.thumbnail,
    ...(doc.metadata && {
      metadata: renderMetadata(effectiveMetafields(type?.metafields ?? [], doc.own_metafields), doc.metadata, {
        fileUrls: ctx.fileUrls,
        renderRelated: (related) => (isStoredObject(related) ? renderShared(related, ctx, memo) : related),
      }),
    }),
    order: doc.order,
    created_at: doc.created_at?.toISOString(),
    modified_at: doc.modified_at?.toISOString(),
    version: doc.modified_at && versionOf(doc.modified_at),
    published_at: doc.published_at instanceof Date ? doc.published_at.toISOString() : doc.published_at,
    created_by: doc.created_by,
    modified_by: doc.modified_by,
    ...(doc.publish_at && { publish_at: doc.publish_at.getTime() }),
    ...(doc.unpublish_at && { unpublish_at: doc.unpublish_at.getTime() }),
  };
}

/* Bodies of the Object responses (schemas/ObjectResponse.json, ObjectList.json); lists take `props`-narrowed items. */
export type ObjectResponse<Item = ApiObject> = { object: Item };
export type ObjectList<Item = Picked> = { objects: Item[]; total: number };

/**
 * A Bucket's Object types by slug, kept per Bucket generation. Every type write bumps the
 * Bucket's generation, so the types seen at one generation never change and can be kept
 * without a round trip. One per app (see lib/app-state.ts): a Bucket id and generation
 * name one state of one database only.
 */
export class BucketTypes {
  /** A thousand Bucket generations; the least recently read goes first. */
  private readonly byGeneration = new LRUCache<string, ReadonlyMap<string, ObjectTypeDoc>>({ max: 1000 });

  async of(db: Db, bucket: BucketDoc): Promise<ReadonlyMap<string, ObjectTypeDoc>> {
    const key = `${bucket._id.toHexString()}:${bucket.generation}`;
    const hit = this.byGeneration.get(key);
    if (hit) return hit;
    const types = new Map((await listObjectTypes(db, bucket)).map((t) => [t.slug, t]));
    this.byGeneration.set(key, types);
    return types;
  }
}

/** What rendering Objects of a Bucket needs: its types' Metafields and its file addresses. */
export async function objectRenderContext(
  db: Db,
  config: Config,
  types: BucketTypes,
  bucket: BucketDoc,
): Promise<RenderContext> {
  return {
    types: await types.of(db, bucket),
    fileUrls: (name) => (name ? mediaUrls(config.publicUrl, bucket.slug, name) : null),
  };
}
