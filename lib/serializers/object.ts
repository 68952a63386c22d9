import type { ObjectDoc, ObjectTypeDoc } from '../db/collections.js';
import { renderMetadata } from './metadata.js';

export interface RenderContext {
  /** Object types of the Bucket by slug: metadata is rendered by its type's Metafields. */
  types: ReadonlyMap<string, ObjectTypeDoc>;
  /** A property, not a method: renderers pass it on detached from the context. */
  fileUrls: (name: string) => { url: string; imgproc_url: string } | null;
}

function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** A stored Object as read; a `props` projection may have left its metadata out. */
type ReadObject = Omit<ObjectDoc, 'metadata'> & { metadata?: ObjectDoc['metadata'] | undefined };

/**
 * The fewest JSON bytes a rendered Object takes (empty strings, null optional fields, no
 * metadata): every reference to a related Object costs at least this much of a response, which
 * bounds relationship expansion by the response cap. A unit test holds the renderer to it.
 */
export const MIN_RENDERED_OBJECT_BYTES = 200;

type Rendered = Record<string, unknown>;

/** Stored Object → v3 JSON. Related Objects already expanded into metadata render recursively. */
export function renderObject(doc: ReadObject, ctx: RenderContext): Rendered {
  return renderShared(doc, ctx, new WeakMap());
}

/**
 * A page of Objects. Expansion shares one document among every reference to the same related
 * Object, so each is rendered once per response and the rendered result reused.
 */
export function renderObjects(docs: readonly ReadObject[], ctx: RenderContext): Rendered[] {
  const memo = new WeakMap<object, Rendered>();
  return docs.map((doc) => renderShared(doc, ctx, memo));
}

function renderShared(doc: ReadObject, ctx: RenderContext, memo: WeakMap<object, Rendered>): Rendered {
  const seen = memo.get(doc);
  if (seen) return seen;
  const out = renderOne(doc, ctx, memo);
  memo.set(doc, out);
  return out;
}

function renderOne(doc: ReadObject, ctx: RenderContext, memo: WeakMap<object, Rendered>): Rendered {
  const type = ctx.types.get(doc.type);
  const out: Rendered = {
    id: doc._id.toHexString(),
    slug: doc.slug,
    title: doc.title,
    type: doc.type,
    status: doc.status,
    content: doc.content,
    locale: doc.locale,
    thumbnail: doc.thumbnail,
  };
  if (doc.metadata !== undefined) {
    out.metadata = renderMetadata(type?.metafields ?? [], doc.metadata, {
      fileUrls: ctx.fileUrls,
      renderRelated: (related) => renderShared(related as ObjectDoc, ctx, memo),
    });
  }
  out.order = doc.order;
  out.created_at = iso(doc.created_at);
  out.modified_at = iso(doc.modified_at);
  out.published_at = iso(doc.published_at);
  out.created_by = doc.created_by;
  out.modified_by = doc.modified_by;
  if (doc.publish_at) out.publish_at = iso(doc.publish_at);
  if (doc.unpublish_at) out.unpublish_at = iso(doc.unpublish_at);
  return out;
}
